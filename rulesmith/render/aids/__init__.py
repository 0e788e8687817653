"""Player aids, HTML side, one job per module:

- contents.py: what goes on each aid (from the game's aids.yaml plan and the aid kind)
- context.py:  what a template may ask about the content on paper (links, marks, tables)
- text.py:     Markdown to HTML as printed (list markers as written, page-number placeholders)
- pagerefs.py: page-number placeholders and how they are filled
- charts.py:   flowchart SVGs sized and laid out for the page
- stamp.py:    which errata change an aid (its footer stamp)
- document.py: the HTML of one aid from templates/pdf/

The aid kinds and the print geometry are data: rulesmith/aidkinds.py reads templates/pdf/aids.yaml.
"""
