"""A game at a table: its state, entering and correcting hands, a paper sheet, the end of the
game."""
