"""The four games of the seeds, one package each, each named once in ``nctui.platform.registry``.
No game imports another."""
