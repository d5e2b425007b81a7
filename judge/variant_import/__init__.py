"""`judge variant import`: DPJudge's map files turned into variant files.

chain.py reads a map and the files it USEs; dpjudge_map.py what their
lines say (words.py: the format's words, abuts.py: an abut's marks);
board.py and powers.py the provinces and powers the variant file holds;
aliases.py the spellings it may keep; artwork.py its [map] table;
writer.py the text; importer.py all of it with the report; cli.py the
command; ship.py regenerates the shipped variants from tools/dpjudge_maps/.
"""
