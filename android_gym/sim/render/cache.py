"""`ImageLRU`: a least-recently-used cache of PIL images bounded by the bytes their pixels take.

Bounding by bytes rather than entries keeps memory flat across screenshot sizes: a cached list row is 20 KB at
224 pixels wide but 500 KB at 1080.

>>> from PIL import Image
>>> lru = ImageLRU(budget_bytes=300)
>>> lru.put("a", Image.new("L", (10, 10))) and lru.put("b", Image.new("L", (10, 20))) and None
>>> lru.get("a") is not None, lru.get("b") is not None, lru.nbytes
(True, True, 300)
>>> _ = lru.put("c", Image.new("L", (10, 10)))  # over budget: the least recently used ("a") goes
>>> lru.get("a") is None, len(lru)
(True, 2)
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Hashable

from PIL import Image

from android_gym.heap import track_cache

_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "RGB": 3, "RGBA": 4}


_LIVE: weakref.WeakSet[ImageLRU] = weakref.WeakSet()  # for the heap log's count of cached entries
track_cache("rendered images", lambda: sum(len(c) for c in list(_LIVE)))


class ImageLRU:
    """Images by key; adding one past `budget_bytes` of pixels drops the least recently used ones.

    Guarantees: `get` returns exactly the image `put` stored under that key, or None; an image larger than the whole
    budget is returned by `put` but not kept. Counts `hits` and `misses` of `get` for benchmarks.

    Args:
        budget_bytes: the most pixel bytes kept (must be >= 0).
    """

    def __init__(self, budget_bytes: int) -> None:
        self.budget_bytes = budget_bytes
        self.nbytes = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, tuple[Image.Image, int]] = OrderedDict()
        _LIVE.add(self)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Image.Image | None:
        """The image cached under `key` (now the most recently used), or None."""
        item = self._items.get(key)
        if item is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: Hashable, image: Image.Image) -> Image.Image:
        """Cache `image` under `key` and return it."""
        size = image.width * image.height * _BYTES_PER_PIXEL.get(image.mode, 4)
        if size > self.budget_bytes:
            return image
        old = self._items.pop(key, None)
        if old is not None:
            self.nbytes -= old[1]
        self._items[key] = (image, size)
        self.nbytes += size
        while self.nbytes > self.budget_bytes:
            _, (_, dropped) = self._items.popitem(last=False)
            self.nbytes -= dropped
        return image
