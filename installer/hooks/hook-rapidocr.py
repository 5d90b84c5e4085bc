# rapidocr loads its main module lazily (by name) and reads its configuration files and the PP-OCR
# models from its own package folder.
from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

hiddenimports = collect_submodules("rapidocr", filter=lambda name: ".inference_engine." not in name)
hiddenimports += ["rapidocr.inference_engine.onnxruntime", "rapidocr.inference_engine.openvino"]
datas = collect_data_files("rapidocr", excludes=["**/*.pyi", "**/py.typed"]) + copy_metadata("rapidocr")
