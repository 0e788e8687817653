"""The printed player aids, one job per module:

- kinds.py:    the aid kinds and the one print geometry (templates/pdf/aids.yaml)
- contents.py: what goes on each aid (from the game's aids.yaml plan and the aid kind)
- context.py:  what a template may ask about the content on paper (links, marks, tables)
- pagerefs.py: page-number placeholders and how they are filled
- charts.py:   flowchart SVGs sized and laid out for the page
- balance.py:  columns set as measured rows, without CSS multi-column layout
- stamp.py:    which errata change an aid (its footer stamp)
- document.py: the HTML of one aid from templates/pdf/
- pdf.py:      WeasyPrint, sandboxed, cached, in parallel; weasy.py: its private API, pinned
"""
