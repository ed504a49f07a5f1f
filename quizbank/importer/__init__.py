"""`quizbank import`: existing banks (Moodle XML, GIFT) read into YAML in the authoring format.

A reader (moodle_xml, gift) turns a file into a `SourceBank` (source.py): questions in the shape
of the authoring format with their texts still as the file holds them. The conversion
(convert.py) splits the texts by language and makes them Markdown (html_markdown.py); the
writer (yaml_writer.py) writes each quiz in the bundled content's style; files.py writes them
all or none.
"""
