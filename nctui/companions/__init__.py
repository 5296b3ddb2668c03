"""The companion games of the seeds, each a package implementing ``session.protocol.Game`` and
named explicitly in ``session.games``."""
