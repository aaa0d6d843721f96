#!/usr/bin/python3
"""Writes cases.txt: the tensors and expected results of the load-by-name test.

Each case is what torch_npu would hand aclnnHardsigmoidBackward for three
at::Tensor views: sizes and strides of the view, its storage offset in elements,
and the whole storage (a 1-D storage shape). PyTorch (Debian's python3-torch)
builds the views and computes the oracle:

    out_view.copy_(torch.ops.aten.hardsigmoid_backward(grad_view, self_view))

on a copy of out's storage, so the expected storage also says that nothing
outside out's view is written. Run this again only if the cases change.

Format (whitespace-separated tokens, '#' starts a comment line):
    case <name> <f32|bf16>
    <grad|self|out> sizes <n> <d...> strides <s...> offset <o> storage <m> <m hex words>
    expected <m> <m hex words>          out's whole storage after the call
Hex words are the raw bits of each element (8 digits for f32, 4 for bf16).
"""
import pathlib

import torch

DTYPES = {'f32': (torch.float32, torch.int32, 0xFFFFFFFF, 8),
          'bf16': (torch.bfloat16, torch.int16, 0xFFFF, 4)}


def hex_words(storage, tag):
    _, int_type, mask, digits = DTYPES[tag]
    bits = storage.view(int_type).tolist()
    return ' '.join('%0*x' % (digits, b & mask) for b in bits)


def tensor_line(role, view, storage, tag):
    return '%s sizes %d %s strides %s offset %d storage %d %s\n' % (
        role, view.dim(), ' '.join(map(str, view.shape)),
        ' '.join(map(str, view.stride())), view.storage_offset(),
        storage.numel(), hex_words(storage, tag))


def interesting_values(count, low, high, generator, specials):
    """Uniform values with the window's edges and special values mixed in."""
    values = torch.rand(count, generator=generator, dtype=torch.float64) * (high - low) + low
    for index, special in zip(range(0, count, 7), specials):
        values[index] = special
    return values


def write_case(out_file, name, tag, grad_storage, grad_view, self_storage, self_view,
               out_storage, out_view):
    dtype = DTYPES[tag][0]
    # The views must really share the storages written below (no copies).
    for view, storage in ((grad_view, grad_storage), (self_view, self_storage),
                          (out_view, out_storage)):
        assert view.storage().data_ptr() == storage.storage().data_ptr()
        assert view.dtype == dtype
    expected = out_storage.clone()
    torch.as_strided(expected, out_view.shape, out_view.stride(), out_view.storage_offset()).copy_(
        torch.ops.aten.hardsigmoid_backward(grad_view, self_view))
    out_file.write('case %s %s\n' % (name, tag))
    out_file.write(tensor_line('grad', grad_view, grad_storage, tag))
    out_file.write(tensor_line('self', self_view, self_storage, tag))
    out_file.write(tensor_line('out', out_view, out_storage, tag))
    out_file.write('expected %d %s\n' % (expected.numel(), hex_words(expected, tag)))


def main():
    generator = torch.Generator().manual_seed(20240611)
    edges = [-3.0, 3.0, -2.9999, 2.9999, 0.0, -0.0, float('nan'), float('inf'), -float('inf'),
             -3.0001, 3.0001, 1e-40]
    grad_specials = [float('inf'), -float('inf'), 0.0, -0.0, 6.0, -6.0, 1e-40, 65504.0]
    path = pathlib.Path(__file__).with_name('cases.txt')
    with open(path, 'w') as out_file:
        out_file.write('# Made by make_cases.py from PyTorch %s; do not edit.\n' % torch.__version__)
        for tag, sentinel in (('f32', 1234.5), ('bf16', -77.0)):
            dtype = DTYPES[tag][0]
            sizes = (2, 3, 4, 5)
            numel = 2 * 3 * 4 * 5
            # grad: a channels_last tensor whose storage starts 7 elements
            # before the view (e.g. a view into a larger allocation).
            grad_storage = interesting_values(numel + 7, -10, 10, generator,
                                              grad_specials).to(dtype)
            grad_view = torch.as_strided(grad_storage, sizes, (60, 1, 15, 3), 7)
            assert grad_view.is_contiguous(memory_format=torch.channels_last)
            # self: the slice [:, :, 1:5, 2:7] of an NCHW tensor of 2x3x6x7.
            self_base = interesting_values(2 * 3 * 6 * 7, -5, 5, generator, edges).to(dtype)
            self_view = self_base.view(2, 3, 6, 7)[:, :, 1:5, 2:7]
            # out: contiguous NCHW at offset 3 of a storage with 5 spare
            # elements after it, all holding a sentinel.
            out_storage = torch.full((numel + 8,), sentinel, dtype=dtype)
            out_view = torch.as_strided(out_storage, sizes, (60, 20, 5, 1), 3)
            write_case(out_file, '%s_nchw_channels_last_grad_sliced_self_offset_out' % tag, tag,
                       grad_storage, grad_view, self_base, self_view, out_storage, out_view)
        # A second float32 case where out itself is a strided, offset view
        # (every other W element of a wider tensor) and self is transposed in H/W.
        dtype = torch.float32
        sizes = (1, 2, 3, 4)
        grad_storage = interesting_values(24, -10, 10, generator, grad_specials).to(dtype)
        grad_view = grad_storage.view(sizes)
        self_base = interesting_values(2 + 24, -4, 4, generator, edges).to(dtype)
        self_view = self_base[2:].view(1, 2, 4, 3).transpose(2, 3)
        out_storage = torch.full((1 + 2 * 3 * 8 + 1,), 99.0, dtype=dtype)
        out_view = torch.as_strided(out_storage, sizes, (48, 24, 8, 2), 1)
        write_case(out_file, 'f32_strided_out_transposed_self', 'f32', grad_storage, grad_view,
                   self_base, self_view, out_storage, out_view)
    print('wrote', path)


if __name__ == '__main__':
    main()
