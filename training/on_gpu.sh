#!/bin/bash
# The mixed adaptation on a lent GPU machine (docs/ADAPTING.md, "On a GPU machine").
# Run from the repository root there, with .adapt/ carried beside it:
#   .adapt/packs/{synthetic,real,rooms,guard}.pack    (python -m training pack)
#   .adapt/{encoder_model,decoder_model_merged}.ort.xz, .adapt/tokenizer.bin
#   .adapt/whl/*.whl                                   (soundfile, cffi, pycparser, lazy_loader for Python 3.12)
# Arguments go to the `mixed` command (--variant ..., --batch, --workers); what comes back
# is written to $OUT: the guard's best delta in parts, guard.json, train.json, log.txt.
export PYTHONUNBUFFERED=1
set -o pipefail
T0=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site .adapt/whl/*.whl || exit 3
export PYTHONPATH=/tmp/site:$PWD
mkdir -p /tmp/moonshine && cp .adapt/tokenizer.bin /tmp/moonshine/
python3 -c "
import lzma
for f in ('encoder_model.ort', 'decoder_model_merged.ort'):
    open('/tmp/moonshine/' + f, 'wb').write(lzma.open('.adapt/' + f + '.xz').read())
" || exit 4
export VOICE_HOST_MOONSHINE_MODEL=/tmp/moonshine
nvidia-smi -L
echo "set up in $(( $(date +%s) - T0 )) s"
python3 -m training mixed .adapt/packs /tmp/adapt-run "$@" --copy-to "$OUT" 2>&1 | tee "$OUT/log.txt"
echo "done in $(( $(date +%s) - T0 )) s"
