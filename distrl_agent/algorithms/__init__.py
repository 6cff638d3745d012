"""Learning algorithms: Retrace(lambda) targets (`retrace.py`), A-RIDE, and the DigiRL and filtered-BC baselines."""
