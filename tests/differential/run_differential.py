#!/usr/bin/python3
"""Differential test of aclnnHardsigmoidBackward against PyTorch (issue "Reliability", clause 6).

Generates random cases — every dtype mix of gradOutput/self (f32, f16, bf16) with
every out dtype (f32, f16, bf16, f64), ranks 0 to 8, empty shapes, contiguous,
permuted, sliced, offset, broadcast (zero-stride) and overlapping input views,
non-contiguous out views, values drawn around the (-3, 3) window, special values
(NaN, +-inf, +-0, +-3 and their neighbours, subnormals, extremes) and raw bit
patterns — runs them all through aclcpu with tests/differential/diff_driver.cc
(device memory from aclrtMalloc, both phases, one stream) and compares:

  - status must be 0;
  - every element of out's view must equal PyTorch bit for bit, except that a
    NaN must match any NaN (NaN as a class, as in the README);
  - every byte of out's storage outside the view must still be 0xA5.

The oracle is the one tests/golden/make_golden.py uses:
    torch.ops.aten.hardsigmoid_backward(grad, self)  in the promoted dtype, then .to(out)
with a float16 promoted type computed in float32 on the exactly widened inputs and
rounded once with .to(torch.float16) (torch 1.13 CPU has no float16 kernel).

Usage: run_differential.py --driver build/tests/differential/hsb_diff_driver
                           [--cases 4000] [--seed 1] [--keep DIR]
Exit status 0 iff every case matched; mismatching cases are printed (first 20).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ACL = {'f32': 0, 'f16': 1, 'f64': 11, 'bf16': 27}
TORCH = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'f64': torch.float64}
ITEMSIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'f64': 8}
BITS_NP = {'f32': np.uint32, 'f16': np.uint16, 'bf16': np.uint16, 'f64': np.uint64}
SIGNED_TORCH = {'f32': torch.int32, 'f16': torch.int16, 'bf16': torch.int16, 'f64': torch.int64}
SIGNED_NP = {'f32': np.int32, 'f16': np.int16, 'bf16': np.int16, 'f64': np.int64}
INPUTS = ('f32', 'f16', 'bf16')
OUTS = ('f32', 'f16', 'bf16', 'f64')
PROMOTED = {(a, b): (a if a == b else 'f32') for a in INPUTS for b in INPUTS}
SENTINEL = 0xA5


def special_values(name):
    finfo = torch.finfo(TORCH[name])
    tiny = float(finfo.tiny)
    values = [0.0, -0.0, 3.0, -3.0, 2.999, -2.999, 3.001, -3.001, 1.0, -1.0, 6.0, -6.0,
              float('inf'), float('-inf'), float('nan'), float(finfo.max), -float(finfo.max),
              tiny, -tiny, tiny / 4, -tiny / 4, 1e-30, 65504.0, 1e5]
    exact = torch.tensor(values, dtype=torch.float64).to(TORCH[name])
    # The neighbours of +-3 in this dtype: the window's edges.
    three = torch.tensor([3.0, -3.0], dtype=TORCH[name])
    neighbours = [torch.nextafter(three, torch.tensor([0.0, 0.0], dtype=TORCH[name])),
                  torch.nextafter(three, torch.tensor([10.0, -10.0], dtype=TORCH[name]))] \
        if name != 'f16' and name != 'bf16' else []
    parts = [exact] + neighbours
    bits = np.concatenate([to_bits(p, name) for p in parts])
    if name in ('f16', 'bf16'):  # nextafter has no 16-bit CPU kernel in torch 1.13: step the bits
        three_bits = to_bits(three, name).astype(np.int64)
        bits = np.concatenate([bits, (three_bits - 1).astype(BITS_NP[name]), (three_bits + 1).astype(BITS_NP[name])])
    return bits


def to_bits(tensor, name):
    return tensor.contiguous().view(SIGNED_TORCH[name]).numpy().view(BITS_NP[name])


def from_bits(bits, name):
    raw = np.ascontiguousarray(bits, dtype=BITS_NP[name]).view(SIGNED_NP[name])
    return torch.from_numpy(raw.copy()).view(TORCH[name])


def random_values(rng, name, count, specials):
    """Bit patterns of `count` values of dtype `name`: mostly near the window, some specials, some raw bits."""
    kind = rng.random(count)
    uniform = torch.from_numpy(rng.uniform(-5.0, 5.0, count)).to(TORCH[name])
    bits = to_bits(uniform, name).copy()
    pick = kind < 0.15
    bits[pick] = specials[rng.integers(0, len(specials), int(pick.sum()))]
    raw = kind > 0.92
    bits[raw] = rng.integers(0, np.iinfo(BITS_NP[name]).max, int(raw.sum()), dtype=np.uint64,
                             endpoint=True).astype(BITS_NP[name])
    return bits


def view_offsets(dims, strides, offset):
    """Storage index of every view element, shaped like the view (row-major order)."""
    offsets = np.array(offset, dtype=np.int64)
    for dim, stride in zip(dims, strides):
        offsets = offsets[..., None] + np.arange(dim, dtype=np.int64) * stride
    return offsets


def make_layout(rng, dims, is_out):
    """(strides, offset, storage_elements) of a view of `dims`. Out views never overlap themselves."""
    rank = len(dims)
    order = rng.permutation(rank) if rng.random() < 0.4 else np.arange(rank)
    steps = [int(rng.choice([1, 1, 1, 2, 3])) if rng.random() < 0.4 else 1 for _ in range(rank)]
    pads = [int(rng.choice([0, 0, 1, 2])) if rng.random() < 0.3 else 0 for _ in range(rank)]
    # Storage dims in the permuted order; view dim order[k] is storage dim k.
    storage_dims = [dims[order[k]] * steps[order[k]] + pads[order[k]] for k in range(rank)]
    row_major = [1] * rank
    for k in range(rank - 2, -1, -1):
        row_major[k] = row_major[k + 1] * max(storage_dims[k + 1], 1)
    strides = [0] * rank
    for k in range(rank):
        strides[order[k]] = row_major[k] * steps[order[k]]
    if not is_out and rank > 0 and rng.random() < 0.2:  # broadcast: some dims stride 0
        for d in range(rank):
            if rng.random() < 0.4:
                strides[d] = 0
    if not is_out and rank > 1 and rng.random() < 0.1:  # overlapping windows
        strides[-2] = 1
        strides[-1] = 1
    offset = int(rng.integers(0, 6)) if rng.random() < 0.5 else 0
    if 0 in dims:
        extent = 0
    else:
        extent = offset + sum((d - 1) * s for d, s in zip(dims, strides)) + 1
    return strides, offset, extent + int(rng.integers(0, 4))


def random_dims(rng, big):
    rank = int(rng.integers(0, 9))
    if big:
        rank = int(rng.integers(1, 4))
        budget = int(rng.integers(40000, 140000))
    else:
        budget = int(rng.choice([8, 64, 300, 1200]))
    dims = []
    for _ in range(rank):
        limit = max(1, int(round(budget ** (1.0 / rank))) + 1)
        dims.append(int(rng.integers(1, limit + 1)))
    if rank > 0 and rng.random() < 0.03:
        dims[int(rng.integers(0, rank))] = 0  # empty
    return dims


def oracle(grad, self_, g, s, o):
    promoted = PROMOTED[(g, s)]
    assert torch.result_type(grad, self_) == TORCH[promoted]
    if promoted == 'f16':
        result = torch.ops.aten.hardsigmoid_backward(grad.float(), self_.float()).to(torch.float16)
    else:
        result = torch.ops.aten.hardsigmoid_backward(grad, self_)
    assert result.dtype == TORCH[promoted]
    return result.to(TORCH[o])


def is_nan_bits(bits, name):
    if name == 'f32':
        return ((bits & 0x7f800000) == 0x7f800000) & ((bits & 0x7fffff) != 0)
    if name == 'f64':
        return ((bits & 0x7ff0000000000000) == 0x7ff0000000000000) & ((bits & 0xfffffffffffff) != 0)
    if name == 'f16':
        return ((bits & 0x7c00) == 0x7c00) & ((bits & 0x3ff) != 0)
    return ((bits & 0x7f80) == 0x7f80) & ((bits & 0x7f) != 0)


def generate(rng, count):
    specials = {name: special_values(name) for name in INPUTS}
    combos = [(g, s, o) for g in INPUTS for s in INPUTS for o in OUTS]
    cases = []
    for index in range(count):
        g, s, o = combos[index % len(combos)]
        big = index % 97 == 0
        dims = random_dims(rng, big)
        layouts = [make_layout(rng, dims, is_out) for is_out in (False, False, True)]
        storages = [random_values(rng, name, layouts[k][2], specials[name]) for k, name in ((0, g), (1, s))]
        cases.append({'g': g, 's': s, 'o': o, 'dims': dims, 'layouts': layouts, 'storages': storages})
    return cases


def write_cases(path, cases):
    with open(path, 'wb') as f:
        f.write(b'ACLDIFF1')
        f.write(np.array([len(cases)], dtype='<i8').tobytes())
        for case in cases:
            header = [ACL[case['g']], ACL[case['s']], ACL[case['o']], len(case['dims'])] + case['dims']
            for strides, offset, storage in case['layouts']:
                header += strides + [offset, storage]
            f.write(np.array(header, dtype='<i8').tobytes())
            for bits, name in zip(case['storages'], (case['g'], case['s'])):
                f.write(np.ascontiguousarray(bits).astype(np.dtype(BITS_NP[name]).newbyteorder('<')).tobytes())


def read_results(path, cases):
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == b'ACLDRES1', 'not a result file'
    pos = 8
    count = int(np.frombuffer(data, '<i8', 1, pos)[0])
    pos += 8
    assert count == len(cases)
    results = []
    for case in cases:
        status = int(np.frombuffer(data, '<i8', 1, pos)[0])
        pos += 8
        storage = None
        if status == 0:
            nbytes = case['layouts'][2][2] * ITEMSIZE[case['o']]
            storage = np.frombuffer(data, np.uint8, nbytes, pos)
            pos += nbytes
        results.append((status, storage))
    assert pos == len(data), 'trailing bytes in the result file'
    return results


def check(case, status, storage):
    g, s, o = case['g'], case['s'], case['o']
    dims = case['dims']
    if status != 0:
        return 'status %d' % status
    (gs, go, _), (ss, so, _), (os_, oo, on) = case['layouts']
    expected = np.full(on * ITEMSIZE[o], SENTINEL, dtype=np.uint8)
    if 0 not in dims:
        grad = torch.as_strided(from_bits(case['storages'][0], g), dims, gs, go)
        self_ = torch.as_strided(from_bits(case['storages'][1], s), dims, ss, so)
        out_bits = to_bits(oracle(grad, self_, g, s, o), o).reshape(-1)
        positions = view_offsets(dims, os_, oo).reshape(-1)
        expected_view = expected.view(BITS_NP[o])
        expected_view[positions] = out_bits
    actual = storage.view(BITS_NP[o])
    expected_bits = expected.view(BITS_NP[o])
    same = actual == expected_bits
    nan_both = is_nan_bits(actual, o) & is_nan_bits(expected_bits, o)
    bad = np.nonzero(~(same | nan_both))[0]
    if len(bad) == 0:
        return None
    k = int(bad[0])
    return '%d of %d storage elements differ; first at %d: got 0x%x, expected 0x%x' % (
        len(bad), len(actual), k, int(actual[k]), int(expected_bits[k]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--driver', required=True)
    parser.add_argument('--cases', type=int, default=4000)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--keep', help='directory to keep the case and result files in')
    args = parser.parse_args()
    torch.set_num_threads(1)

    start = time.time()
    rng = np.random.default_rng(args.seed)
    cases = generate(rng, args.cases)
    workdir = args.keep or tempfile.mkdtemp(prefix='aclcpu-diff-')
    os.makedirs(workdir, exist_ok=True)
    case_path = os.path.join(workdir, 'cases.bin')
    result_path = os.path.join(workdir, 'results.bin')
    write_cases(case_path, cases)
    env = dict(os.environ)
    env.pop('ACLCPU_SOC', None)  # the default SoC accepts bf16
    subprocess.run([args.driver, case_path, result_path], check=True, env=env)
    results = read_results(result_path, cases)

    failures = []
    elements = 0
    for index, (case, (status, storage)) in enumerate(zip(cases, results)):
        elements += int(np.prod(case['dims'])) if case['dims'] else 1
        problem = check(case, status, storage)
        if problem is not None:
            failures.append((index, case, problem))
    for index, case, problem in failures[:20]:
        print('MISMATCH case %d: grad=%s self=%s out=%s dims=%s layouts(strides, offset, storage)=%s: %s' % (
            index, case['g'], case['s'], case['o'], case['dims'], case['layouts'], problem))
    if not args.keep:
        for path in (case_path, result_path):
            os.remove(path)
        os.rmdir(workdir)
    ranks = sorted({len(c['dims']) for c in cases})
    print('differential: %d cases (%d elements, ranks %s, seed %d) against torch %s in %.1f s' % (
        len(cases), elements, ranks, args.seed, torch.__version__, time.time() - start))
    print('differential: %d passed, %d failed' % (len(cases) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
