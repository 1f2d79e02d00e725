#!/usr/bin/env python3
# Writes vectors/q8parity/tiny.gguf with llama.cpp's own Python GGUF writer and Q8_0 quantizer (the `gguf`
# package, independent of bitexact), for the strict reader's tests and `verify q8parity --gguf`:
#   python3 -m venv /tmp/gv && /tmp/gv/bin/pip install gguf==0.19.0 numpy && \
#     /tmp/gv/bin/python vectors/q8parity/make_tiny_gguf.py vectors/q8parity/tiny.gguf fuzz/corpus/q8parity_gguf/small-valid
# (generated with gguf 0.19.0, numpy 2.4.6). Tensors (ggml order: ne0 is the row length):
#   blk.0.ffn_down.weight  Q8_0 [256, 67]  67 rows of K = 256, quantized by gguf.quants.quantize
#   blk.0.ffn_down.deq     F32  [256, 67]  gguf.quants.dequantize of it: what every block must decode to
#   tokens.f32             F32  [256, 3]   three tokens of activations
#   tokens.f16             F16  [256, 2]   two tokens as fp16 (decoded exactly)
#   blk.1.attn_q.weight    Q8_0 [64, 5]    a second, small Q8_0 tensor
import sys

import numpy as np
import gguf

out = sys.argv[1]
rng = np.random.default_rng(20261201)
w = (rng.standard_normal((67, 256)) * 0.05).astype(np.float32)
w[3, :32] = 0.0                      # an all-zero block: scale 0
w[5, 32:64] *= 1e-3                  # tiny weights: a subnormal fp16 scale (~1e-6)
q = gguf.quants.quantize(w, gguf.GGMLQuantizationType.Q8_0)
deq = gguf.quants.dequantize(q, gguf.GGMLQuantizationType.Q8_0).astype(np.float32)
x = rng.uniform(-2.0, 2.0, (3, 256)).astype(np.float32)
x16 = rng.uniform(-2.0, 2.0, (2, 256)).astype(np.float16)
w2 = (rng.standard_normal((5, 64)) * 0.1).astype(np.float32)
q2 = gguf.quants.quantize(w2, gguf.GGMLQuantizationType.Q8_0)

writer = gguf.GGUFWriter(out, "bitexact-tiny")
writer.add_name("bitexact q8parity reader test")
writer.add_tensor("blk.0.ffn_down.weight", q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
writer.add_tensor("blk.0.ffn_down.deq", deq)
writer.add_tensor("tokens.f32", x)
writer.add_tensor("tokens.f16", x16)
writer.add_tensor("blk.1.attn_q.weight", q2, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()

if len(sys.argv) > 2:  # a minimal valid file for the reader's fuzz corpus: one Q8_0 [64, 2], one F32 [32]
    small = gguf.GGUFWriter(sys.argv[2], "bitexact-small")
    small.add_tensor("w", gguf.quants.quantize(w2[:2], gguf.GGMLQuantizationType.Q8_0), raw_dtype=gguf.GGMLQuantizationType.Q8_0)
    small.add_tensor("x", x[0, :32].copy())
    small.write_header_to_file()
    small.write_kv_data_to_file()
    small.write_tensors_to_file()
    small.close()
