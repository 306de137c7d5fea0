"""valtti: Marjapussi, the Finnish partnership trick-taking game with marriages and trumps."""

__version__ = "0.1.0"
