"""Task templates of the AndroidWorld-scale suite (issue 17): one module per app or app pair, each exporting
`TEMPLATES`."""  # noqa: D205, D209
