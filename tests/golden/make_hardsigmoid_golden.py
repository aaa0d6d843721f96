#!/usr/bin/python3
"""Writes aclcpu's golden files for aclnnHardsigmoid into tests/golden/hardsigmoid/.

Oracles, one per dtype:
    FLOAT     torch.nn.functional.hardsigmoid (Debian's python3-torch, torch 1.13)
    BFLOAT16  the same on bfloat16 tensors (torch computes in float32 and rounds once)
    FLOAT16   torch 1.13 has no float16 CPU kernel: hardsigmoid in float32 on the
              exactly widened input, rounded with .to(torch.float16) (RNE)
    INT32     no PyTorch oracle: CANN's documented piecewise formula in exact
              rationals (fractions.Fraction) -- 0 for self <= -3, 1 for self > 3,
              self/6 + 1/2 otherwise -- converted to an integer by truncation
              toward zero (aclcpu's stated choice, README "Semantics").

Every floating result is cross-checked against an independent NumPy evaluation of
min(max(self + 3, 0), 6) / 6 in float32 (then RNE to the dtype); the script stops
if the two disagree anywhere other than in NaN payloads.

File format (one file per dtype, little-endian):
    line 1, ASCII, ends with '\\n':
        aclcpu-golden-hardsigmoid v1 dtype=<dt> count=<n>
      <dt> is one of f32, f16, bf16, i32
    then two raw arrays: self (count elements), expected (count elements).

Files:
    f32.bin   specials, the neighbours of -3, 0 and 3, seeded uniform values in
              (-8, 8) and seeded random bit patterns
    f16.bin, bf16.bin   all 65,536 bit patterns
    i32.bin   -40..40, the int32 extremes and seeded random values
    MANIFEST.txt        file list with counts and SHA-256

Run:  /usr/bin/python3 tests/golden/make_hardsigmoid_golden.py
"""

import hashlib
import math
import os
from fractions import Fraction

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, 'hardsigmoid')


def numpy_formula(x32):
    with np.errstate(invalid='ignore'):
        shifted = x32 + np.float32(3)
        # np.maximum/np.minimum propagate NaN, as std::max/std::min do here.
        return (np.minimum(np.maximum(shifted, np.float32(0)), np.float32(6)) / np.float32(6)).astype(np.float32)


def same_or_both_nan(a, b):
    return np.all((a.view(np.uint32 if a.dtype == np.float32 else np.uint16) ==
                   b.view(np.uint32 if b.dtype == np.float32 else np.uint16)) | (np.isnan(a.astype(np.float32)) &
                                                                               np.isnan(b.astype(np.float32))))


def float32_inputs():
    rng = np.random.default_rng(21)
    specials = [0.0, -0.0, 3.0, -3.0, 6.0, -6.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, -np.nan,
                1e-45, -1e-45, 1e-38, -1e-38, 3.4e38, -3.4e38]
    values = list(np.array(specials, dtype=np.float32))
    for center in (-3.0, 0.0, 3.0):
        c = np.float32(center)
        up, down = c, c
        for _ in range(64):
            up = np.nextafter(up, np.float32(np.inf), dtype=np.float32)
            down = np.nextafter(down, np.float32(-np.inf), dtype=np.float32)
            values += [up, down]
    values += list(rng.uniform(-8, 8, 16000).astype(np.float32))
    values += list(rng.integers(0, 2**32, 4000, dtype=np.uint64).astype(np.uint32).view(np.float32))
    return np.array(values, dtype=np.float32)


def golden_f32():
    x = float32_inputs()
    expected = torch.nn.functional.hardsigmoid(torch.from_numpy(x.copy())).numpy()
    assert same_or_both_nan(expected, numpy_formula(x)), 'torch and the formula disagree (f32)'
    return x, expected


def golden_bf16():
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    widened = (bits.astype(np.uint32) << 16).view(np.float32)
    x = torch.from_numpy(widened.copy()).to(torch.bfloat16)
    expected = torch.nn.functional.hardsigmoid(x)
    expected_bits = expected.view(torch.int16).numpy().view(np.uint16)
    check = torch.from_numpy(numpy_formula(widened)).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    both_nan = np.isnan(expected.float().numpy()) & np.isnan(numpy_formula(widened))
    assert np.all((expected_bits == check) | both_nan), 'torch and the formula disagree (bf16)'
    return bits, expected_bits


def golden_f16():
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    widened = bits.view(np.float16).astype(np.float32)
    expected = torch.nn.functional.hardsigmoid(torch.from_numpy(widened.copy())).to(torch.float16).numpy()
    check = numpy_formula(widened).astype(np.float16)
    assert same_or_both_nan(expected, check), 'torch and the formula disagree (f16)'
    return bits, expected.view(np.uint16)


def int_oracle(x):
    if x <= -3:
        value = Fraction(0)
    elif x > 3:
        value = Fraction(1)
    else:
        value = Fraction(x, 6) + Fraction(1, 2)
    return math.trunc(value)  # truncation toward zero


def golden_i32():
    rng = np.random.default_rng(32)
    values = list(range(-40, 41)) + [-2**31, -2**31 + 1, 2**31 - 2, 2**31 - 1]
    values += [int(v) for v in rng.integers(-2**31, 2**31, 4000, dtype=np.int64)]
    x = np.array(values, dtype=np.int32)
    expected = np.array([int_oracle(int(v)) for v in x], dtype=np.int32)
    return x, expected


def write(name, dtype_name, x, expected):
    path = os.path.join(OUT_DIR, name)
    header = 'aclcpu-golden-hardsigmoid v1 dtype=%s count=%d\n' % (dtype_name, len(x))
    data = header.encode('ascii') + x.tobytes() + expected.tobytes()
    with open(path, 'wb') as f:
        f.write(data)
    return '%s dtype=%s count=%d bytes=%d sha256=%s' % (name, dtype_name, len(x), len(data),
                                                       hashlib.sha256(data).hexdigest())


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    lines = ['# aclcpu golden data for aclnnHardsigmoid, made by make_hardsigmoid_golden.py with torch ' +
             torch.__version__]
    lines.append(write('f32.bin', 'f32', *golden_f32()))
    lines.append(write('bf16.bin', 'bf16', *golden_bf16()))
    lines.append(write('f16.bin', 'f16', *golden_f16()))
    lines.append(write('i32.bin', 'i32', *golden_i32()))
    with open(os.path.join(OUT_DIR, 'MANIFEST.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
