# rapidocr loads its main module lazily (by name) and reads its configuration files and the PP-OCR
# models from its own package folder. Its models run on onnxruntime in the bundle (see bidcheck.spec).
from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

hiddenimports = collect_submodules("rapidocr", filter=lambda name: ".inference_engine." not in name)
hiddenimports += collect_submodules("rapidocr.inference_engine.onnxruntime")
datas = collect_data_files("rapidocr", excludes=["**/*.pyi", "**/py.typed"]) + copy_metadata("rapidocr")
