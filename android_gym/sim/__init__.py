"""The simulated phone: view trees, apps, web sites, keyboard, pop-ups, latency, renderer and ADB front."""
