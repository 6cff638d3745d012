"""Devices: the Device contract and its implementations (simulated phone, ADB, emulators)."""
