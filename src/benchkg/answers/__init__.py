"""Answers: saved queries and their slice vocabulary, the answer assembled with its caveats and notes,
the table, data and chart formats, compare, show, explain, the disclosure line and curves read at one
interactivity."""
