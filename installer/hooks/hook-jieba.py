# bidcheck tokenises with rjieba and reads only jieba's IDF table (bidcheck/fingerprint/tokens.py): the
# rest of jieba's data (dictionary, HMM and LAC models, about 35 MB) is left out.
from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("jieba", includes=["analyse/idf.txt"])
