"""The commands of `rulesmith`, one module each: build, serve, new, errata, rulings, diff, review
(and check, format, schema in the command line itself). Each module says how it is called
(`configure(parser)`) and what it does; cli.py registers them from COMMANDS."""
