"""Plain list: a small ruleset for Fracas in a package of its own, found through its entry point
(`fracas.rulesets`, plainlist.plugin:PLUGIN). docs/adding-a-ruleset.md walks through it."""
