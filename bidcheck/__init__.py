"""bidcheck: finds collusion among the bids of one tender section, with located evidence."""

__version__ = "0.1.0"
