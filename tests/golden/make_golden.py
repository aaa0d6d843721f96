#!/usr/bin/python3
"""Writes aclcpu's golden files for aclnnHardsigmoidBackward into tests/golden/data/.

The oracle is PyTorch (Debian's python3-torch, torch 1.13):
    expected = torch.ops.aten.hardsigmoid_backward(grad, self)   # in the promoted dtype
               .to(out_dtype)
torch promotes mixed inputs itself; the script asserts that torch.result_type
gives the promotion CANN documents (equal types stay, f32 with f16/bf16 -> f32,
f16 with bf16 -> f32).

torch 1.13 has no float16 CPU kernel for hardsigmoid_backward. For a float16
promoted type the script therefore evaluates hardsigmoid_backward in float32 on
the exactly widened inputs and rounds the result with .to(torch.float16). That
is PyTorch's own "opmath" semantics for half (compute in float, round once with
round-to-nearest-even), the same thing its CUDA and newer CPU kernels do.

Every result is cross-checked against an independent NumPy evaluation of the
formula  out = (-3 < self < 3) ? grad * (1.0f/6.0f) : +0.0f  (float32, then RNE
to the promoted type, then RNE to the out type). The script stops if the two
disagree anywhere other than in NaN payloads, so the files encode a value both
PyTorch and the written specification agree on.

File format (one file per case, little-endian):
    line 1, ASCII, ends with '\\n':
        aclcpu-golden v1 name=<name> grad=<dt> self=<dt> out=<dt> shape=<d0,d1,...> count=<n>
      <dt> is one of f32, f16, bf16, f64; shape is the logical (view) shape of
      the case, empty for a 0-d tensor; count is the number of elements.
    then three raw arrays, in element (row-major view) order:
        grad     count * sizeof(grad dtype) bytes
        self     count * sizeof(self dtype) bytes
        expected count * sizeof(out dtype) bytes
  f16 is IEEE binary16, bf16 is the upper half of an IEEE binary32.

Files:
    grad_<g>_self_<s>_out_<o>.bin   36 combinations: special self x special grad
                                    cross product, grads whose result is an exact
                                    rounding tie in the out dtype, and seeded
                                    random values (grad ~ U(-10,10), self ~ U(-5,5)).
    exhaustive_f16.bin, exhaustive_bf16.bin
                                    all 65,536 self bit patterns with permuted
                                    grads, then all 65,536 grad bit patterns with
                                    in-range selfs (grad, self and out share the dtype).
    case_<name>.bin                 the inputs of CANN/ops-nn's test cases and
                                    examples (cann-api.md §4), in view order.
    MANIFEST.txt                    file list with counts and SHA-256.

Run:  /usr/bin/python3 tests/golden/make_golden.py   (rewrites the data directory)
"""

import argparse
import hashlib
import math
import os
import zlib

import numpy as np
import torch

DTYPES = {
    'f32': torch.float32,
    'f16': torch.float16,
    'bf16': torch.bfloat16,
    'f64': torch.float64,
}
INPUT_DTYPES = ('f32', 'f16', 'bf16')
OUT_DTYPES = ('f32', 'f16', 'bf16', 'f64')
ITEMSIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'f64': 8}
# Signed integer types of the same width, to move raw bits in and out of torch.
BITS_TORCH = {'f32': torch.int32, 'f16': torch.int16, 'bf16': torch.int16, 'f64': torch.int64}
BITS_NUMPY = {'f32': np.uint32, 'f16': np.uint16, 'bf16': np.uint16, 'f64': np.uint64}
SIGNED_NUMPY = {'f32': np.int32, 'f16': np.int16, 'bf16': np.int16, 'f64': np.int64}

# CANN's promotion table (cann-api.md §2.4), checked against torch.result_type.
PROMOTED = {
    ('f32', 'f32'): 'f32', ('f32', 'f16'): 'f32', ('f32', 'bf16'): 'f32',
    ('f16', 'f32'): 'f32', ('f16', 'f16'): 'f16', ('f16', 'bf16'): 'f32',
    ('bf16', 'f32'): 'f32', ('bf16', 'f16'): 'f32', ('bf16', 'bf16'): 'bf16',
}

# (min subnormal, max subnormal, min normal, max finite) per dtype, as Python floats.
LIMITS = {
    'f32': (2.0 ** -149, 2.0 ** -126 - 2.0 ** -149, 2.0 ** -126, float(np.finfo(np.float32).max)),
    'f16': (2.0 ** -24, 2.0 ** -14 - 2.0 ** -24, 2.0 ** -14, 65504.0),
    'bf16': (2.0 ** -133, 2.0 ** -126 - 2.0 ** -133, 2.0 ** -126, float(torch.finfo(torch.bfloat16).max)),
    'f64': (2.0 ** -1074, 2.0 ** -1022 - 2.0 ** -1074, 2.0 ** -1022, float(np.finfo(np.float64).max)),
}

ONE_SIXTH_F32 = np.float32(1.0) / np.float32(6.0)
assert ONE_SIXTH_F32.view(np.uint32) == 0x3E2AAAAB


# ---------------------------------------------------------------------------------------
# Conversions between Python floats, raw bits and torch tensors.

def to_dtype(values, name):
    """Python floats -> torch tensor of dtype `name` (torch's RNE conversion from float64)."""
    return torch.tensor(np.asarray(values, dtype=np.float64)).to(DTYPES[name])


def from_bits(bits, name):
    """Unsigned bit patterns -> torch tensor of dtype `name`, bit for bit."""
    raw = np.asarray(bits, dtype=BITS_NUMPY[name]).view(SIGNED_NUMPY[name])
    return torch.from_numpy(raw.copy()).view(DTYPES[name])


def to_bits(tensor, name):
    """torch tensor of dtype `name` -> numpy array of unsigned bit patterns."""
    return tensor.contiguous().view(BITS_TORCH[name]).numpy().view(BITS_NUMPY[name])


def dedupe_by_bits(tensor, name):
    """Keeps the first occurrence of every bit pattern, preserving order."""
    bits = to_bits(tensor, name)
    _, first = np.unique(bits, return_index=True)
    return tensor[torch.from_numpy(np.sort(first))]


def neighbours_of(value, name):
    """The two values of dtype `name` adjacent to `value` (which must be representable)."""
    center = to_bits(to_dtype([value], name), name)[0].astype(np.int64)
    return [float(from_bits([center - 1], name)[0]), float(from_bits([center + 1], name)[0])]


# ---------------------------------------------------------------------------------------
# The oracle and its independent cross-check.

def torch_oracle(grad, self_, g, s, o):
    promoted = PROMOTED[(g, s)]
    assert torch.result_type(grad, self_) == DTYPES[promoted], (g, s, torch.result_type(grad, self_))
    if promoted == 'f16':
        # No float16 CPU kernel in torch 1.13: compute in float32 (exact widening) and
        # round once to float16 with RNE, i.e. PyTorch's opmath semantics.
        result = torch.ops.aten.hardsigmoid_backward(grad.float(), self_.float()).to(torch.float16)
    else:
        result = torch.ops.aten.hardsigmoid_backward(grad, self_)
    assert result.dtype == DTYPES[promoted]
    return result.to(DTYPES[o])


def numpy_round_f32_to(values_f32, name):
    """float32 numpy array -> bits of dtype `name`, round-to-nearest-even."""
    if name == 'f32':
        return values_f32.view(np.uint32)
    if name == 'f64':
        return values_f32.astype(np.float64).view(np.uint64)
    if name == 'f16':
        with np.errstate(over='ignore'):  # out-of-range values become ±inf, as RNE requires
            return values_f32.astype(np.float16).view(np.uint16)
    bits = values_f32.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(values_f32)
    rounded[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)  # stays a (quiet) NaN
    return rounded


def numpy_widen_to_f32(bits, name):
    if name == 'f32':
        return bits.view(np.float32)
    if name == 'f16':
        return bits.view(np.float16).astype(np.float32)
    return (bits.astype(np.uint32) << 16).view(np.float32)


def numpy_reference_bits(grad_bits, self_bits, g, s, o):
    """The written specification, evaluated with NumPy only."""
    grad32 = numpy_widen_to_f32(grad_bits, g)
    self32 = numpy_widen_to_f32(self_bits, s)
    with np.errstate(invalid='ignore', over='ignore'):
        in_range = (self32 > np.float32(-3.0)) & (self32 < np.float32(3.0))
        result32 = np.where(in_range, grad32 * ONE_SIXTH_F32, np.float32(0.0)).astype(np.float32)
    promoted = PROMOTED[(g, s)]
    promoted_bits = numpy_round_f32_to(result32, promoted)
    # Every promoted value widens exactly to float32, so one more RNE gives the out dtype.
    return numpy_round_f32_to(numpy_widen_to_f32(promoted_bits, promoted), o)


def is_nan_bits(bits, name):
    return np.isnan(numpy_widen_to_f32(bits, name)) if name != 'f64' else np.isnan(bits.view(np.float64))


def expected_for(grad, self_, g, s, o):
    expected = torch_oracle(grad, self_, g, s, o)
    torch_bits = to_bits(expected, o)
    numpy_bits = numpy_reference_bits(to_bits(grad, g), to_bits(self_, s), g, s, o)
    torch_nan = is_nan_bits(torch_bits, o)
    numpy_nan = is_nan_bits(numpy_bits, o)
    disagree = (torch_nan != numpy_nan) | (~torch_nan & (torch_bits != numpy_bits))
    if disagree.any():
        index = int(np.flatnonzero(disagree)[0])
        raise SystemExit(f'torch and the specification disagree for {g}/{s}/{o} at {index}: '
                         f'grad={float(grad[index])!r} self={float(self_[index])!r} '
                         f'torch={torch_bits[index]:#x} spec={numpy_bits[index]:#x}')
    return expected


# ---------------------------------------------------------------------------------------
# Inputs.

def special_self_values(s):
    """±3 and its neighbours, ±0, ±inf, NaN, subnormals, normals, ±1, ±2.5, ±100, ±max."""
    min_sub, max_sub, min_normal, max_finite = LIMITS[s]
    values = [3.0, -3.0, 0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan,
              min_sub, -min_sub, max_sub, -max_sub, min_normal, -min_normal,
              1.0, -1.0, 2.5, -2.5, 100.0, -100.0, max_finite, -max_finite]
    # Neighbours of ±3 in every input dtype; those of a coarser dtype are exactly
    # representable in a finer one and probe the boundary there too.
    for name in INPUT_DTYPES:
        for candidate in neighbours_of(3.0, name) + neighbours_of(-3.0, name):
            if float(to_dtype([candidate], s)[0]) == candidate:
                values.append(candidate)
    return dedupe_by_bits(to_dtype(values, s), s)


def special_grad_values(g, s, o):
    """NaN, ±inf, ±0, subnormals, grads whose result is subnormal, max, tiny, ±1, ±6, ±3.4e38."""
    min_sub, max_sub, min_normal, max_finite = LIMITS[g]
    values = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0,
              min_sub, -min_sub, max_sub, -max_sub, min_normal, -min_normal,
              max_finite, -max_finite, 1.0, -1.0, 6.0, -6.0, 3.4e38, -3.4e38]
    # grad * (1/6) lands in the subnormal range of the out dtype (and of the
    # promoted dtype, which is what an f64 out shows): smallest, a tie at half of
    # the smallest, a mid-range one and one just below the normal range.
    for target in sorted({o, PROMOTED[(g, s)]}):  # sorted: set order varies per process
        if target == 'f64':
            continue
        t_min_sub, t_max_sub, t_min_normal, _ = LIMITS[target]
        for product in (t_min_sub, t_min_sub / 2, 37 * t_min_sub, t_max_sub, 0.75 * t_min_normal):
            values += [6.0 * product, -6.0 * product]
    return dedupe_by_bits(to_dtype(values, g), g)


def tie_grads(g, s, o, rng, wanted=24):
    """Grads whose promoted result (with self = 1) is exactly halfway between two
    values of the out dtype, so the final conversion must round half to even."""
    if o == 'f64':  # every promoted value is exact in f64
        return torch.empty(0, dtype=DTYPES[g])
    if ITEMSIZE[g] == 2:
        candidates = from_bits(np.arange(1 << 16, dtype=np.uint32), g)
    else:
        magnitude = np.exp2(rng.uniform(-150.0, 20.0, 1 << 20))
        sign = np.where(rng.random(1 << 20) < 0.5, -1.0, 1.0)
        candidates = torch.from_numpy((sign * magnitude).astype(np.float32))
    ones = torch.ones(candidates.shape, dtype=DTYPES[s])
    promoted = PROMOTED[(g, s)]
    result = torch_oracle(candidates, ones, g, s, promoted).double().numpy()
    finite = np.isfinite(result) & (result != 0)
    if not finite.any():
        return candidates[:0]
    min_sub, _, min_normal, _ = LIMITS[o]
    mantissa_bits = {'f32': 23, 'f16': 10, 'bf16': 7}[o]
    magnitude = np.abs(np.where(finite, result, 1.0))
    exponent = np.floor(np.log2(magnitude))
    ulp = np.where(magnitude < min_normal, min_sub, np.exp2(exponent - mantissa_bits))
    scaled = magnitude / ulp * 2.0  # an odd integer exactly at a tie
    is_tie = finite & (scaled == np.floor(scaled)) & (np.fmod(scaled, 2.0) == 1.0)
    picked = np.flatnonzero(is_tie)
    if picked.size > wanted:
        picked = np.sort(rng.choice(picked, wanted, replace=False))
    return candidates[torch.from_numpy(picked)]


def stable_seed(name):
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


def uniform(rng, low, high, count, name):
    return to_dtype(rng.uniform(low, high, count), name)


def combination_inputs(g, s, o, random_count):
    rng = np.random.default_rng(stable_seed(f'{g}/{s}/{o}'))
    selfs = special_self_values(s)
    grads = special_grad_values(g, s, o)
    cross_grad = grads.repeat(selfs.numel())
    cross_self = selfs.repeat_interleave(grads.numel())
    ties = tie_grads(g, s, o, rng)
    in_range_selfs = to_dtype([1.0, -2.5, 0.5, 2.0, -1.0, -0.0], s)
    # Any self in (-3, 3) gives the same result as the self = 1 the ties were found with.
    tie_self = in_range_selfs[torch.arange(ties.numel()) % in_range_selfs.numel()]
    random_grad = uniform(rng, -10.0, 10.0, random_count, g)
    random_self = uniform(rng, -5.0, 5.0, random_count, s)
    grad = torch.cat([cross_grad, ties, random_grad])
    self_ = torch.cat([cross_self, tie_self, random_self])
    return grad, self_


def exhaustive_inputs(name):
    """All 65,536 self patterns with permuted grads, then all grads with in-range selfs."""
    index = np.arange(1 << 16, dtype=np.uint32)
    # An odd multiplier makes this a bijection of the 16-bit patterns.
    permuted = ((index * 40503 + 0x5A5A) & 0xFFFF).astype(np.uint32)
    all_values = from_bits(index, name).float().numpy()
    in_range = np.flatnonzero((all_values > -3.0) & (all_values < 3.0)).astype(np.uint32)
    grad_bits = np.concatenate([permuted, index])
    self_bits = np.concatenate([index, in_range[permuted % in_range.size]])
    return from_bits(grad_bits, name), from_bits(self_bits, name)


# ---------------------------------------------------------------------------------------
# Named cases from CANN/ops-nn (cann-api.md §4).

def named_cases():
    """(name, grad dtype, self dtype, out dtype, shape, grad values, self values)."""
    cases = []

    def random_case(name, g, s, o, shape):
        rng = np.random.default_rng(stable_seed(name))
        count = int(np.prod(shape)) if shape else 1
        cases.append((name, g, s, o, shape, uniform(rng, -10.0, 10.0, count, g),
                      uniform(rng, -10.0, 10.0, count, s)))

    # §4.4: CANN's documented example and the v3 example.
    cases.append(('doc_example', 'f32', 'f32', 'f32', [4, 2],
                  to_dtype(range(8), 'f32'), to_dtype(range(8), 'f32')))
    cases.append(('v3_example', 'f32', 'f32', 'f32', [4, 2],
                  to_dtype(range(1, 9), 'f32'), to_dtype([-4, -2, -1, 0, 1, 2, 3, 4], 'f32')))
    # §4.3: the system-test json.
    random_case('st_fp16', 'f16', 'f16', 'f16', [128])
    random_case('st_bf16', 'bf16', 'bf16', 'bf16', [32, 256])
    cases.append(('st_fp32_scalar', 'f32', 'f32', 'f32', [], to_dtype([1.0], 'f32'), to_dtype([1.5], 'f32')))
    # §4.1: the op_api unit tests that succeed.
    random_case('ut_float32_nd', 'f32', 'f32', 'f32', [2, 3])
    random_case('ut_float16_nd', 'f16', 'f16', 'f16', [2, 3])
    random_case('ut_ascend910B2_bfloat16_nd', 'bf16', 'bf16', 'bf16', [2, 3])
    random_case('ut_grad_float16_self_float_nd', 'f16', 'f32', 'f32', [2, 3])
    # ut self_transpose: self is the view {2,3} strides {2,1} of a {3,2} storage, so
    # view element (i, j) is storage[2i + j] and elements (0,2) and (1,0) alias.
    rng = np.random.default_rng(stable_seed('ut_self_transpose'))
    storage = uniform(rng, -10.0, 10.0, 6, 'f32')
    cases.append(('ut_self_transpose', 'f32', 'f32', 'f32', [2, 3], uniform(rng, -10.0, 10.0, 6, 'f32'),
                  storage[torch.tensor([0, 1, 2, 2, 3, 4])]))
    # §4.2: the v3 op_api unit tests that succeed with data.
    random_case('v3_case_001_float', 'f32', 'f32', 'f32', [2, 4])
    random_case('v3_case_002_float16', 'f16', 'f16', 'f16', [2, 5])
    random_case('v3_case_003_bfloat16', 'bf16', 'bf16', 'bf16', [2, 5])
    random_case('v3_case_004_mixed_dtype', 'f16', 'f32', 'f32', [2, 4])
    random_case('v3_case_006_not_contiguous', 'f32', 'f32', 'f32', [5, 4])
    random_case('v3_case_007_scalar_input', 'f32', 'f32', 'f32', [])
    return cases


# ---------------------------------------------------------------------------------------
# Output.

def write_golden(directory, name, g, s, o, shape, grad, self_, manifest):
    assert grad.dtype == DTYPES[g] and self_.dtype == DTYPES[s]
    assert grad.numel() == self_.numel()
    expected = expected_for(grad, self_, g, s, o)
    count = grad.numel()
    shape_text = ','.join(str(d) for d in shape)
    header = f'aclcpu-golden v1 name={name} grad={g} self={s} out={o} shape={shape_text} count={count}\n'
    payload = b''.join(to_bits(t, dt).astype(np.dtype(BITS_NUMPY[dt]).newbyteorder('<')).tobytes()
                       for t, dt in ((grad, g), (self_, s), (expected, o)))
    data = header.encode('ascii') + payload
    file_name = f'{name}.bin'
    with open(os.path.join(directory, file_name), 'wb') as f:
        f.write(data)
    manifest.append(f'{file_name} grad={g} self={s} out={o} shape=[{shape_text}] count={count} '
                    f'bytes={len(data)} sha256={hashlib.sha256(data).hexdigest()}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out-dir', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data'))
    parser.add_argument('--random-count', type=int, default=3000)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    torch.set_flush_denormal(False)  # subnormals are part of the contract
    manifest = [f'# aclcpu golden data for aclnnHardsigmoidBackward, made by make_golden.py with torch {torch.__version__}']

    for g in INPUT_DTYPES:
        for s in INPUT_DTYPES:
            for o in OUT_DTYPES:
                grad, self_ = combination_inputs(g, s, o, args.random_count)
                write_golden(args.out_dir, f'grad_{g}_self_{s}_out_{o}', g, s, o, [grad.numel()],
                             grad, self_, manifest)
    for name in ('f16', 'bf16'):
        grad, self_ = exhaustive_inputs(name)
        write_golden(args.out_dir, f'exhaustive_{name}', name, name, name, [grad.numel()], grad, self_, manifest)
    for name, g, s, o, shape, grad, self_ in named_cases():
        write_golden(args.out_dir, f'case_{name}', g, s, o, shape, grad, self_, manifest)

    with open(os.path.join(args.out_dir, 'MANIFEST.txt'), 'w') as f:
        f.write('\n'.join(manifest) + '\n')
    total = sum(os.path.getsize(os.path.join(args.out_dir, n)) for n in os.listdir(args.out_dir))
    print(f'wrote {len(manifest) - 1} golden files, {total} bytes, to {args.out_dir}')


if __name__ == '__main__':
    main()
