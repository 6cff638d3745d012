"""Tasks: the Task contract, the general and webshop suites with their experts, and task files."""
