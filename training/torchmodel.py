"""Moonshine base as a PyTorch model (transformers' MoonshineForConditionalGeneration)
with the weights of the moonshine-cpp .ort files (see .weights). Needs the ``adapt``
extra (torch, transformers)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from voice_host.speech.recognizing.moonshine.weights import HIDDEN, INTERMEDIATE, LAYERS, VOCAB_PADDED

from .weights import base_weights

BOS, EOS = 1, 2


def config():
    from transformers import MoonshineConfig

    return MoonshineConfig(
        vocab_size=VOCAB_PADDED, hidden_size=HIDDEN, intermediate_size=INTERMEDIATE,
        encoder_num_hidden_layers=LAYERS, decoder_num_hidden_layers=LAYERS,
        encoder_num_attention_heads=8, decoder_num_attention_heads=8,
        encoder_num_key_value_heads=8, decoder_num_key_value_heads=8,
        partial_rotary_factor=0.62, pad_head_dim_to_multiple_of=8, max_position_embeddings=194,
        encoder_hidden_act="gelu", decoder_hidden_act="silu",
        bos_token_id=BOS, eos_token_id=EOS, decoder_start_token_id=BOS, pad_token_id=EOS,
        tie_word_embeddings=True, attention_dropout=0.0,
    )


def load_base(model_dir: Path | None = None, weights: dict[str, np.ndarray] | None = None):
    """The PyTorch model with Moonshine base's weights (fp32, eval mode)."""
    import torch
    from transformers import MoonshineForConditionalGeneration

    weights = weights if weights is not None else base_weights(model_dir)
    try:  # every weight is loaded below: skip the random initialization (1-2 s)
        from transformers.initialization import no_init_weights
    except ImportError:  # pragma: no cover - transformers 4
        from transformers.modeling_utils import no_init_weights
    with no_init_weights():
        model = MoonshineForConditionalGeneration(config())
    state = {k: torch.from_numpy(np.array(v, np.float32)) for k, v in weights.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if k != "proj_out.weight"]
    if missing or unexpected:
        raise ValueError(f"the weights do not fit the model: missing {missing[:5]}, unexpected {unexpected[:5]}")
    model.tie_weights()
    if model.proj_out.weight.data_ptr() != model.model.decoder.embed_tokens.weight.data_ptr():
        model.proj_out.weight = model.model.decoder.embed_tokens.weight
    return model.eval()


def state_arrays(model) -> dict[str, np.ndarray]:
    """The model's weights as float32 numpy arrays, under base_weights' names."""
    return {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items() if k != "proj_out.weight"}


def logits(model, audio: np.ndarray, ids: list[int]) -> np.ndarray:
    """Teacher-forced logits (len(ids), vocab) for one clip and decoder input ids."""
    import torch

    with torch.no_grad():
        out = model(input_values=torch.from_numpy(audio[None, :].astype(np.float32)),
                    decoder_input_ids=torch.tensor([ids], dtype=torch.long))
    return out.logits[0].float().numpy()
