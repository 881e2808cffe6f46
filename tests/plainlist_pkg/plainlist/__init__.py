"""Plain list: a small ruleset for Fracas in a package of its own, found through its entry point
(`fracas.rulesets`, plainlist.plugin:PLUGIN). docs/adding-a-ruleset.md walks through it."""

# the engine first: importing it loads every plugin, this one's too, so whichever module of this
# package is imported first, the engine is whole before any of them asks it for a name
import engine  # noqa: F401
