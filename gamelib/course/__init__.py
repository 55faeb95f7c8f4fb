"""Helpers of the design sessions of the course (issue 23): checks of design targets, exact streak
figures, and the recomputation of a playtest report. Long notebook cells live here, tested."""
