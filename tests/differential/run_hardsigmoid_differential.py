#!/usr/bin/python3
"""Differential test of aclnnHardsigmoid and aclnnInplaceHardsigmoid against PyTorch.

Generates random cases — FLOAT, FLOAT16, BFLOAT16 and INT32, ranks 0 to 8, empty
shapes, contiguous, permuted, padded, [::2], offset and broadcast (zero-stride)
self views, non-contiguous offset out views, in place through non-contiguous
self views, values around -3 and 3, special values (NaN, +-inf, +-0, subnormals,
extremes) and raw bit patterns — runs them all through aclcpu with
tests/differential/hardsigmoid_diff_driver.cc (device memory from aclrtMalloc,
both phases, one stream) and compares:

  - status must be 0;
  - every element of the written view (out's, or self's in place) must equal
    the oracle bit for bit, except that a NaN must match any NaN;
  - every byte of the written storage outside the view must be unchanged
    (0xA5 for out; self's input bytes in place).

Oracles (as tests/golden/make_hardsigmoid_golden.py):
    FLOAT, BFLOAT16   torch.nn.functional.hardsigmoid
    FLOAT16           the same in float32 on the widened input, then .to(torch.float16)
    INT32             CANN's piecewise formula in exact rationals, truncated toward zero

Usage: run_hardsigmoid_differential.py --driver build/tests/differential/hs_diff_driver
                                       [--cases 4000] [--seed 1]
Exit status 0 iff every case matched; mismatching cases are printed (first 20).
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import torch

ACL = {'f32': 0, 'f16': 1, 'i32': 3, 'bf16': 27}
TORCH = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'i32': torch.int32}
ITEMSIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'i32': 4}
MAX_ELEMENTS = 3000


def random_values(rng, dtype, count):
    if dtype == 'i32':
        small = rng.integers(-8, 9, count)
        extreme = rng.choice([-2**31, -2**31 + 1, 2**31 - 1, -3, -2, 2, 3, 4], count)
        wide = rng.integers(-2**31, 2**31, count)
        pick = rng.integers(0, 4, count)
        return np.where(pick == 0, extreme, np.where(pick == 1, wide, small)).astype(np.int32).tobytes()
    specials = np.array([0.0, -0.0, 3.0, -3.0, np.nextafter(3, 4), np.nextafter(-3, -4), np.nextafter(3, 0),
                         np.nextafter(-3, 0), np.inf, -np.inf, np.nan, 1e-40, -1e-40, 6e-8, 65504, 3.3e38],
                        dtype=np.float32)
    ordinary = rng.uniform(-5, 5, count).astype(np.float32)
    special = specials[rng.integers(0, len(specials), count)]
    pick = rng.integers(0, 4, count)
    values = np.where(pick == 0, special, ordinary).astype(np.float32)
    tensor = torch.from_numpy(values).to(TORCH[dtype])
    raw = tensor.view(torch.int16 if ITEMSIZE[dtype] == 2 else torch.int32).numpy().copy()
    random_bits = rng.integers(0, 2**(8 * ITEMSIZE[dtype]), count, dtype=np.uint64)
    raw_bits = random_bits.astype(np.uint16 if ITEMSIZE[dtype] == 2 else np.uint32).view(raw.dtype)
    return np.where(pick == 1, raw_bits, raw).tobytes()


def random_dims(rng):
    rank = int(rng.integers(0, 9))
    while True:
        dims = [int(rng.integers(1, 6)) for _ in range(rank)]
        if rank and rng.random() < 0.05:
            dims[int(rng.integers(0, rank))] = 0
        if math.prod(dims) <= MAX_ELEMENTS:
            return dims


def view_strides(rng, dims, allow_broadcast):
    """Strides of a view of `dims`: row-major, permuted, padded, stepped, broadcast."""
    rank = len(dims)
    order = list(range(rank))
    if rng.random() < 0.3:
        rng.shuffle(order)
    step = 2 if rng.random() < 0.2 else 1
    strides = [0] * rank
    stride = step
    for d in reversed(order):
        strides[d] = stride
        stride *= max(dims[d], 1) + (1 if rng.random() < 0.2 else 0)
    if allow_broadcast and rank and rng.random() < 0.2:
        strides[int(rng.integers(0, rank))] = 0
    return strides


def extent(dims, strides, offset):
    if 0 in dims:
        return 0
    return offset + sum((d - 1) * s for d, s in zip(dims, strides)) + 1


def int_oracle(x):
    x = int(x)
    value = Fraction(0) if x <= -3 else Fraction(1) if x > 3 else Fraction(x, 6) + Fraction(1, 2)
    return math.trunc(value)


def expected_view(dtype, view):
    if dtype == 'i32':
        return torch.tensor([int_oracle(v) for v in view.flatten().tolist()], dtype=torch.int32).reshape(view.shape)
    if dtype == 'f16':
        return torch.nn.functional.hardsigmoid(view.float()).to(torch.float16)
    return torch.nn.functional.hardsigmoid(view)


def make_case(rng):
    dtype = ['f32', 'f16', 'bf16', 'i32'][int(rng.integers(0, 4))]
    in_place = rng.random() < 0.3
    dims = random_dims(rng)
    self_strides = view_strides(rng, dims, allow_broadcast=not in_place)
    self_offset = int(rng.integers(0, 6))
    self_storage = extent(dims, self_strides, self_offset) + int(rng.integers(0, 3))
    out_strides = view_strides(rng, dims, allow_broadcast=False)
    out_offset = int(rng.integers(0, 6))
    out_storage = extent(dims, out_strides, out_offset) + int(rng.integers(0, 3))
    data = random_values(rng, dtype, self_storage)
    return dict(dtype=dtype, in_place=in_place, dims=dims, self=(self_strides, self_offset, self_storage),
                out=(out_strides, out_offset, out_storage), data=data)


def expected_storage(case):
    dtype, dims = case['dtype'], case['dims']
    strides, offset, elements = case['self']
    storage = torch.frombuffer(bytearray(case['data']), dtype=TORCH[dtype]) if elements else torch.empty(0, dtype=TORCH[dtype])
    view = torch.as_strided(storage, dims, strides, offset) if elements else torch.empty(dims, dtype=TORCH[dtype])
    result = expected_view(dtype, view)
    if case['in_place']:
        target = storage.clone()
        w_strides, w_offset = strides, offset
    else:
        w_strides, w_offset, w_elements = case['out']
        target = torch.frombuffer(bytearray(b'\xa5' * (w_elements * ITEMSIZE[dtype])), dtype=TORCH[dtype]) \
            if w_elements else torch.empty(0, dtype=TORCH[dtype])
    if result.numel():
        torch.as_strided(target, dims, w_strides, w_offset).copy_(result)
    return target


def same_storage(dtype, actual_bytes, expected):
    if dtype == 'i32':
        return actual_bytes == expected.numpy().tobytes()
    actual = torch.frombuffer(bytearray(actual_bytes), dtype=TORCH[dtype]) if actual_bytes else expected[:0]
    bits = torch.int16 if ITEMSIZE[dtype] == 2 else torch.int32
    equal = actual.view(bits) == expected.view(bits)
    both_nan = torch.isnan(actual.float()) & torch.isnan(expected.float())
    return bool((equal | both_nan).all())


def write_cases(path, cases):
    with open(path, 'wb') as f:
        f.write(b'ACLHSDF1' + np.int64(len(cases)).tobytes())
        for case in cases:
            header = [ACL[case['dtype']], int(case['in_place']), len(case['dims'])] + case['dims']
            for strides, offset, elements in (case['self'], case['out']):
                header += strides + [offset, elements]
            f.write(np.array(header, dtype=np.int64).tobytes())
            f.write(case['data'])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--driver', required=True)
    parser.add_argument('--cases', type=int, default=4000)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    cases = [make_case(rng) for _ in range(args.cases)]
    with tempfile.TemporaryDirectory() as work:
        cases_path, results_path = os.path.join(work, 'cases.bin'), os.path.join(work, 'results.bin')
        write_cases(cases_path, cases)
        subprocess.run([args.driver, cases_path, results_path], check=True)
        with open(results_path, 'rb') as f:
            results = f.read()
    assert results[:8] == b'ACLHSRS1', 'not a results file'
    pos = 16
    failures = []
    for index, case in enumerate(cases):
        status = int(np.frombuffer(results[pos:pos + 8], dtype=np.int64)[0])
        pos += 8
        expected = expected_storage(case)
        if status != 0:
            failures.append('case %d: status %d (%s)' % (index, status, describe(case)))
            continue
        size = expected.numel() * ITEMSIZE[case['dtype']]
        actual = results[pos:pos + size]
        pos += size
        if not same_storage(case['dtype'], actual, expected):
            failures.append('case %d: wrong storage (%s)' % (index, describe(case)))
    for line in failures[:20]:
        print(line)
    elements = sum(math.prod(c['dims']) for c in cases)
    print('%d cases, %d elements, %d mismatches' % (len(cases), elements, len(failures)))
    return 1 if failures else 0


def describe(case):
    return 'dtype=%s in_place=%s dims=%s self=%s out=%s' % (case['dtype'], case['in_place'], case['dims'],
                                                           case['self'], case['out'])


if __name__ == '__main__':
    sys.exit(main())
