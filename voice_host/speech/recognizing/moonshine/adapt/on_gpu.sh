#!/bin/bash
# The mixed adaptation on a lent GPU machine (docs/ADAPTING.md, "On a GPU machine").
# Run from the repository root there, with .adapt/ carried beside it:
#   .adapt/packs/{synthetic,real,rooms,guard}.pack    (python -m ...adapt pack)
#   .adapt/{encoder_model,decoder_model_merged}.ort.xz, .adapt/tokenizer.bin
#   .adapt/whl/*.whl                                   (soundfile, cffi, pycparser for Python 3.12)
# Arguments go to the `mixed` command (--variant ..., --batch, --workers); what comes back
# is written to $OUT: the guard's best delta in parts, guard.json, train.json, log.txt.
export PYTHONUNBUFFERED=1
set -o pipefail
T0=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site .adapt/whl/*.whl || exit 3
# voice_host.speech imports the words layer's libraries; the training never calls them
mkdir -p /tmp/stub/rapidfuzz
python3 -c "import jellyfish" 2>/dev/null || : > /tmp/stub/jellyfish.py
python3 -c "import lemminflect" 2>/dev/null || : > /tmp/stub/lemminflect.py
python3 -c "import rapidfuzz" 2>/dev/null || {
    echo "from types import SimpleNamespace as _N; fuzz = process = _N()" > /tmp/stub/rapidfuzz/__init__.py
    echo "OSA = Indel = Levenshtein = None" > /tmp/stub/rapidfuzz/distance.py; }
export PYTHONPATH=/tmp/site:$PWD:/tmp/stub
mkdir -p /tmp/moonshine && cp .adapt/tokenizer.bin /tmp/moonshine/
python3 -c "
import lzma
for f in ('encoder_model.ort', 'decoder_model_merged.ort'):
    open('/tmp/moonshine/' + f, 'wb').write(lzma.open('.adapt/' + f + '.xz').read())
" || exit 4
export VOICE_HOST_MOONSHINE_MODEL=/tmp/moonshine
nvidia-smi -L
echo "set up in $(( $(date +%s) - T0 )) s"
python3 -m voice_host.speech.recognizing.moonshine.adapt mixed .adapt/packs /tmp/adapt-run "$@" --copy-to "$OUT" 2>&1 | tee "$OUT/log.txt"
echo "done in $(( $(date +%s) - T0 )) s"
