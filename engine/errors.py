"""The one exception a rule violation raises: its message is meant for the GM, as written."""


class RuleError(Exception):
    """A command broke a rule or named something that is not there. Nothing was changed."""
