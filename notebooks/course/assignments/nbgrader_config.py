"""nbgrader's course folder for the graded assignments of the game-design course.

``source/`` holds the instructor versions (solutions and hidden tests inside nbgrader's
markers); ``nbgrader generate_assignment`` makes the student release from them. The other
folders nbgrader makes (release, submitted, autograded, feedback, gradebook.db) are not
committed; docs/teaching/grading.md says how to run a term.
"""

c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = "gamelib-game-design"
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ExecutePreprocessor.timeout = 300
