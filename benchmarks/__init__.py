"""Benchmarks reproducing DistRL's claims on this project: `python -m benchmarks run --suite quick --out DIR`."""
