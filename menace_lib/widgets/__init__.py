"""Interactive widgets for the book (anywidget front ends and their JavaScript)."""
