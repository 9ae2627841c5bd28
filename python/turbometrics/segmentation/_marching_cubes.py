"""The marching-cubes surface of each 2x2x2 neighbourhood code, derived
from the cube's geometry: the triangles whose areas are DeepMind
surface-distance's surfel areas (``method="surfel"`` in 3-D, ``_surfel``).

The rules, checked against DeepMind's surfaces (every code's triangles have
the area vectors of DeepMind's, exactly: tests/segmentation/
test_surface_deepmind.py):

1. Corner ``k`` (0 to 7) of a code is the pixel at offset
   ``(k >> 2 & 1, k >> 1 & 1, k & 1)`` and has bit ``2 ** (7 - k)`` (the
   first pixel the highest bit, as ``_surfel._codes`` builds codes). Points
   are in doubled coordinates, so that all are integers: corner ``c`` is
   ``2c`` and the midpoint of the edge between corners ``c`` and ``d`` is
   ``c + d``.
2. A code and its complement have the same surface. It is built for the
   side with at most four corners (the code's own corners when it has
   four): the "inside" corners below.
3. On each face of the cube the surface crosses, at its midpoint, every
   edge whose two corners differ. Two crossings are joined by a segment.
   Four crossings (two inside corners on a diagonal of the face, the
   ambiguous face) make two segments, each cutting off one inside corner
   (the two edges' midpoints around it): the inside corners stay apart.
   For a code of four corners, cutting off the other side's instead gives
   the same triangles.
4. Every crossing lies on two faces, so the segments close into polygons
   of 3 to 6 vertices.
5. A planar polygon (the triangle around one corner, the rectangle along
   an edge or across the cube, the regular hexagon around a corner and its
   three neighbours) is cut into a fan from its first vertex; all its
   triangulations have the same area. A non-planar one (the pentagon
   around three corners of a face, the hexagon around a chain of four
   corners) takes, of its triangulations, the one of the largest area and,
   of those, the one of the shortest diagonals: for the pentagon, the
   triangle of the three crossings in the plane halfway between the face
   and its opposite, and two more; for the hexagon, the triangle of every
   other vertex and three ears.
6. A triangle ``(a, b, c)`` has the area vector ``(b - a) x (c - a) / 2``;
   in doubled coordinates the cross product is 8 times it, an integer
   triple. The areas depend on the components' absolute values only.

Rules 2 and 3 are Lorensen and Cline's marching cubes, as in the former
case-by-case implementation of scikit-image whose triangles DeepMind's
table lists; rule 5's choices among triangulations are the ones that give
its triangles (triangulations of equal area cut the same planar pieces
along other diagonals: the same area at any spacing, up to rounding).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import lru_cache

Point = tuple[int, int, int]
Triangle = tuple[Point, Point, Point]

_CORNERS: tuple[Point, ...] = tuple((k >> 2 & 1, k >> 1 & 1, k & 1) for k in range(8))


def _faces() -> list[list[Point]]:
    """The six faces, each as its four corners in order around it."""
    faces = []
    for axis in range(3):
        first, second = (a for a in range(3) if a != axis)
        for side in (0, 1):
            ring = []
            for u, v in ((0, 0), (0, 1), (1, 1), (1, 0)):
                corner = [0, 0, 0]
                corner[axis], corner[first], corner[second] = side, u, v
                ring.append((corner[0], corner[1], corner[2]))
            faces.append(ring)
    return faces


def _midpoint(c: Point, d: Point) -> Point:
    return (c[0] + d[0], c[1] + d[1], c[2] + d[2])


def _segments(inside: set[Point]) -> list[tuple[Point, Point]]:
    """Rule 3: the segments on the faces."""
    segments = []
    for ring in _faces():
        edges = [(ring[k], ring[(k + 1) % 4]) for k in range(4)]  # edge k joins corners k and k + 1
        crossing = [k for k, (c, d) in enumerate(edges) if (c in inside) != (d in inside)]
        if len(crossing) == 2:
            segments.append((_midpoint(*edges[crossing[0]]), _midpoint(*edges[crossing[1]])))
        elif len(crossing) == 4:
            segments += [(_midpoint(*edges[k - 1]), _midpoint(*edges[k])) for k in range(4) if ring[k] in inside]
    return segments


def _polygons(segments: list[tuple[Point, Point]]) -> list[list[Point]]:
    """Rule 4: the closed polygons the segments make, each as its vertices
    in order."""
    neighbours: dict[Point, list[Point]] = {}
    for p, q in segments:
        neighbours.setdefault(p, []).append(q)
        neighbours.setdefault(q, []).append(p)
    polygons, seen = [], set()
    for start in neighbours:
        if start in seen:
            continue
        polygon = [start]
        seen.add(start)
        while following := [q for q in neighbours[polygon[-1]] if q not in seen]:
            polygon.append(following[0])
            seen.add(following[0])
        polygons.append(polygon)
    return polygons


def _cross(t: Triangle) -> Point:
    """Rule 6: (b - a) x (c - a), 8 times the area vector."""
    (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = t
    u, v = (b0 - a0, b1 - a1, b2 - a2), (c0 - a0, c1 - a1, c2 - a2)
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _triangulations(corners: tuple[int, ...]) -> Iterator[tuple[tuple[int, int, int], ...]]:
    """Every triangulation of a polygon's vertex indices by diagonals that
    do not cross: the triangle on the side from the first to the last
    vertex, with each apex, and the triangulations of the two sides left."""
    if len(corners) < 3:
        yield ()
        return
    for k in range(1, len(corners) - 1):
        for left in _triangulations(corners[: k + 1]):
            for right in _triangulations(corners[k:]):
                yield (*left, (corners[0], corners[k], corners[-1]), *right)


def _triangulate(polygon: list[Point]) -> list[Triangle]:
    """Rule 5."""
    n = len(polygon)
    normal = _cross((polygon[0], polygon[1], polygon[2]))
    if all(sum(x * (p - q) for x, p, q in zip(normal, point, polygon[0], strict=True)) == 0 for point in polygon):
        return [(polygon[0], polygon[k], polygon[k + 1]) for k in range(1, n - 1)]

    def preference(triangulation: tuple[tuple[int, int, int], ...]) -> tuple[float, float]:
        area = sum(math.hypot(*_cross((polygon[i], polygon[j], polygon[k]))) for i, j, k in triangulation)
        sides = {(i, (i + 1) % n) for i in range(n)} | {((i + 1) % n, i) for i in range(n)}
        edges = {(p, q) for t in triangulation for p, q in itertools.combinations(t, 2)} - sides
        diagonals = sum(math.dist(polygon[p], polygon[q]) for p, q in edges)
        # equal areas (sums of square roots) compare equal to 1e-9; two
        # different ones differ by 0.059 or more (in these units)
        return round(area, 9), -round(diagonals, 9)

    best = max(_triangulations(tuple(range(n))), key=preference)
    return [(polygon[i], polygon[j], polygon[k]) for i, j, k in best]


@lru_cache(maxsize=1)
def triangle_normals() -> tuple[tuple[Point, ...], ...]:
    """Per code (0 to 255), the absolute values of its triangles' area
    vectors times 8 (integer triples), in the order the rules make them;
    none for codes 0 and 255."""
    out = []
    for code in range(256):
        inside = {c for k, c in enumerate(_CORNERS) if code >> (7 - k) & 1}
        if len(inside) > 4:
            inside = set(_CORNERS) - inside
        triangles = [t for polygon in _polygons(_segments(inside)) for t in _triangulate(polygon)]
        out.append(tuple((abs(x), abs(y), abs(z)) for x, y, z in map(_cross, triangles)))
    return tuple(out)
