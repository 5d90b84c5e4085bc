# OpenVINO runs rapidocr's models (bidcheck/ingest/ocr.py). It loads its device plugins and model readers
# by name from the folder of libopenvino: the CPU plugin and the ONNX reader are what bidcheck uses. Left
# out: the GPU and NPU plugins, the readers of other model formats, the GPU kernel cache (cache.json).
from pathlib import Path

from PyInstaller.utils.hooks import copy_metadata, get_package_paths

_LIBS = Path(get_package_paths("openvino")[1]) / "libs"
_USED = (
    "libopenvino_intel_cpu_plugin",
    "libopenvino_auto_plugin",
    "libopenvino_onnx_frontend",
    "libopenvino_ir_frontend",
    "openvino_intel_cpu_plugin",
    "openvino_auto_plugin",
    "openvino_onnx_frontend",
    "openvino_ir_frontend",
)

binaries = [(str(lib), "openvino/libs") for lib in _LIBS.iterdir() if lib.name.split(".")[0] in _USED]
datas = copy_metadata("openvino")  # its version names the OCR cache's entries (bidcheck/ingest/ocr.py)
