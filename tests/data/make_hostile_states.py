"""Writes ``hostile_bzip2_bomb.npz`` (about 2 KB): the bytes of a small
``RankingState`` with one more member, ``bomb.npy``, compressed with
bzip2, which decompresses to a 1 GiB uint8 array. ``from_bytes`` must
refuse it without decompressing it (tests/states/test_hostile_state_bytes.py).

Run from the repository root: ``python tests/data/make_hostile_states.py``
(it compresses 1 GiB of zeros: about 20 s).
"""

import io
import pathlib
import zipfile

import numpy as np

import turbometrics as tm

SIZE = 2**30
CHUNK = 2**24


def main() -> None:
    state = tm.RankingState.from_arrays([0, 1, 1], [0.1, 0.7, 0.4])
    buffer = io.BytesIO(state.to_bytes())
    with zipfile.ZipFile(buffer, "a") as archive:
        info = zipfile.ZipInfo("bomb.npy", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_BZIP2
        with archive.open(info, "w", force_zip64=True) as member:
            header = {"descr": "|u1", "fortran_order": False, "shape": (SIZE,)}
            np.lib.format.write_array_header_1_0(member, header)
            zeros = bytes(CHUNK)
            for _ in range(SIZE // CHUNK):
                member.write(zeros)
    path = pathlib.Path(__file__).with_name("hostile_bzip2_bomb.npz")
    path.write_bytes(buffer.getvalue())
    print(f"{path}: {len(buffer.getvalue())} bytes")


if __name__ == "__main__":
    main()
