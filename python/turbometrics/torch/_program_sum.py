"""NumPy's pairwise summation of float64, in its order, with tensor operations.

``np.sum`` of a contiguous float64 array is ``0.0 + pairwise(a, n)``
(``add.reduce`` starts from the identity ``+0.0``), where NumPy's
``pairwise_sum`` (``numpy/_core/src/umath/loops_utils.h.src``) is:

- ``n < 8``: ``-0.0 + a[0] + a[1] + ...``, left to right;
- ``8 <= n <= 128``: eight accumulators ``r[j] = a[j] + a[j + 8] + ...``
  over the first ``n - n % 8`` elements, combined as
  ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the last
  ``n % 8`` elements added left to right;
- ``n > 128``: ``pairwise(left half) + pairwise(right half)``, the left half
  ``n // 2`` rounded down to a multiple of 8.

The tree of additions depends only on ``n``. Here it is built level by
level as tensors of segment lengths (each level's segments cover the input
in order: a segment longer than 128 is split in two, a leaf is carried down
unchanged), the leaves are summed with the eight accumulators for all leaves
at once, and the levels are combined bottom-up. Every addition is one
element-wise float64 tensor addition, correctly rounded, so the result has
NumPy's bits on any device. Every left half is a multiple of 8 long, so each
leaf starts at a multiple of 8 and only the input's last leaf has a
remainder.
"""

from __future__ import annotations

import torch

_BLOCK = 128  # NumPy's PW_BLOCKSIZE
_UNROLL = 8


def _level_sizes(n: int) -> list[int]:
    """The number of segments at each level of the tree of ``n`` elements
    (computed from the lengths alone, so that no tensor is read)."""
    counts = {n: 1}
    sizes = [1]
    while any(length > _BLOCK for length in counts):
        split: dict[int, int] = {}
        for length, count in counts.items():
            if length > _BLOCK:
                half = length // 2 - (length // 2) % _UNROLL
                parts: tuple[int, ...] = (half, length - half)
            else:
                parts = (length,)
            for part in parts:
                split[part] = split.get(part, 0) + count
        counts = split
        sizes.append(sum(counts.values()))
    return sizes


def pairwise_sum(values: torch.Tensor) -> torch.Tensor:
    """``np.sum`` of the 1-D float64 tensor ``values``, bit for bit, as a
    0-dimensional tensor on its device.

    Peak memory beyond ``values``: about 0.7 bytes per element (the leaves'
    accumulators and gathered rows, one leaf per 64 to 128 elements).
    """
    n = values.numel()
    device = values.device
    index = torch.int64
    lengths = torch.full((1,), n, dtype=index, device=device)
    levels = []
    for total in _level_sizes(n)[1:]:
        split = lengths > _BLOCK
        half = lengths // 2
        half -= half % _UNROLL
        count = split.to(index) + 1
        position = torch.cumsum(count, 0) - count
        children = torch.empty(total + 1, dtype=index, device=device)
        children.scatter_(0, position, torch.where(split, half, lengths))
        # A leaf has no second child: its write goes to the spare last slot.
        children.scatter_(0, torch.where(split, position + 1, total), lengths - half)
        levels.append((split, position))
        lengths = children[:total]

    rows = lengths // _UNROLL
    first_row = torch.cumsum(rows, 0) - rows
    whole = n - n % _UNROLL
    table = values[:whole].reshape(-1, _UNROLL)
    accumulators = torch.full((lengths.numel(), _UNROLL), -0.0, dtype=torch.float64, device=device)
    for k in range(min(_BLOCK // _UNROLL, whole // _UNROLL)):
        row = table[torch.clamp(first_row + k, max=table.shape[0] - 1)]
        accumulators = torch.where((rows > k)[:, None], accumulators + row, accumulators)
    r = accumulators.unbind(1)
    sums = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    if whole < n:
        last = sums[-1:]
        for i in range(whole, n):
            last = last + values[i : i + 1]
        sums = torch.cat((sums[:-1], last))

    for split, position in reversed(levels):
        left = sums[position]
        right = sums[torch.clamp(position + 1, max=sums.numel() - 1)]
        sums = torch.where(split, left + right, left)
    zero = torch.zeros(1, dtype=torch.float64, device=device)
    return (zero + sums)[0]
