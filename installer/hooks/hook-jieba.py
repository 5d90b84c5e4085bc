# bidcheck tokenises with rjieba and reads only jieba's IDF table and dictionary file (the odd words' spans
# are looked up in numbers made of its words: bidcheck/fingerprint/wordkeys.py): the rest of jieba's data
# (HMM and LAC models, about 30 MB) is left out.
from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("jieba", includes=["analyse/idf.txt", "dict.txt"])
