"""Stage 5, render: site pages, flowcharts and player aids from templates/."""
