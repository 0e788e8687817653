"""Solo-bot procedures as flowcharts: DOT from templates/flowchart, laid out by Graphviz into SVG
(chart), shared by the site and the aids."""
