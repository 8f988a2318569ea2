"""ONNX Runtime format (.ort) files read back as onnx ModelProtos, with the flatbuffer
schema readers onnxruntime ships (onnxruntime.tools.ort_format_model). Used by
convert.py (the conversion into the user cache) and weights.py (the weights under
PyTorch's names); fold_constants works out the weights the graph computes from its int8 ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else (b or "")


def _tensor(t):
    from onnx import TensorProto, numpy_helper  # noqa: F401
    from onnx import helper

    name = _s(t.Name())
    dims = [int(d) for d in (t.DimsAsNumpy() if t.DimsLength() else [])]
    dtype = int(t.DataType())
    if dtype == 8:  # strings
        vals = [t.StringData(i) for i in range(t.StringDataLength())]
        return helper.make_tensor(name, dtype, dims, vals)
    if t.ExternalDataOffset() >= 0:
        raise ValueError(f"tensor {name} has external data")
    tp = TensorProto()
    tp.name = name
    tp.data_type = dtype
    tp.dims.extend(dims)
    tp.raw_data = t.RawDataAsNumpy().tobytes() if t.RawDataLength() else b""
    return tp


def _value_info(va):
    from onnx import helper

    name = _s(va.Name())
    ti = va.Type()
    if ti is None or ti.ValueType() != 1:
        return helper.make_empty_tensor_value_info(name)
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs.TensorTypeAndShape import TensorTypeAndShape

    tts = TensorTypeAndShape()
    v = ti.Value()
    tts.Init(v.Bytes, v.Pos)
    shape = None
    sh = tts.Shape()
    if sh is not None:
        shape = []
        for i in range(sh.DimLength()):
            dv = sh.Dim(i).Value()
            if dv is None or dv.DimType() == 0:
                shape.append(None)
            elif dv.DimType() == 1:
                shape.append(int(dv.DimValue()))
            else:
                shape.append(_s(dv.DimParam()))
    return helper.make_tensor_value_info(name, int(tts.ElemType()), shape)


def _attribute(a):
    from onnx import AttributeProto, helper

    name = _s(a.Name())
    t = a.Type()
    if t == 1:
        return helper.make_attribute(name, float(a.F()), attr_type=AttributeProto.FLOAT)
    if t == 2:
        return helper.make_attribute(name, int(a.I()), attr_type=AttributeProto.INT)
    if t == 3:
        return helper.make_attribute(name, a.S() or b"", attr_type=AttributeProto.STRING)
    if t == 4:
        return helper.make_attribute(name, _tensor(a.T()), attr_type=AttributeProto.TENSOR)
    if t == 5:
        return helper.make_attribute(name, _graph(a.G(), "sub"), attr_type=AttributeProto.GRAPH)
    if t == 6:
        return helper.make_attribute(name, [float(x) for x in a.FloatsAsNumpy()] if a.FloatsLength() else [],
                                     attr_type=AttributeProto.FLOATS)
    if t == 7:
        return helper.make_attribute(name, [int(x) for x in a.IntsAsNumpy()] if a.IntsLength() else [],
                                     attr_type=AttributeProto.INTS)
    if t == 8:
        return helper.make_attribute(name, [a.Strings(i) for i in range(a.StringsLength())],
                                     attr_type=AttributeProto.STRINGS)
    if t == 9:
        return helper.make_attribute(name, [_tensor(a.Tensors(i)) for i in range(a.TensorsLength())],
                                     attr_type=AttributeProto.TENSORS)
    if t == 10:
        return helper.make_attribute(name, [_graph(a.Graphs(i), "sub") for i in range(a.GraphsLength())],
                                     attr_type=AttributeProto.GRAPHS)
    raise ValueError(f"unsupported attribute type {t} ({name})")


def _graph(g, name: str):
    """A flatbuffer Graph as an onnx GraphProto (nodes in topological order)."""
    from onnx import helper

    args = {}
    for i in range(g.NodeArgsLength()):
        va = g.NodeArgs(i)
        args[_s(va.Name())] = va
    nodes = []
    for i in range(g.NodesLength()):
        n = g.Nodes(i)
        if n.Type() != 0:
            raise ValueError("fused node in the ORT graph")
        node = helper.make_node(
            _s(n.OpType()),
            [_s(n.Inputs(j)) for j in range(n.InputsLength())],
            [_s(n.Outputs(j)) for j in range(n.OutputsLength())],
            name=_s(n.Name()) or f"n{n.Index()}",
            domain=_s(n.Domain()),
        )
        node.attribute.extend(_attribute(n.Attributes(j)) for j in range(n.AttributesLength()))
        nodes.append(node)
    inits = [_tensor(g.Initializers(i)) for i in range(g.InitializersLength())]
    inputs = [_value_info(args[_s(g.Inputs(i))]) for i in range(g.InputsLength())]
    outputs = [_value_info(args[_s(g.Outputs(i))]) for i in range(g.OutputsLength())]
    return helper.make_graph(_toposort(nodes, {t.name for t in inits} | {v.name for v in inputs}),
                             name, inputs, outputs, inits)


def _toposort(nodes, known: set[str]):
    produced = {o for n in nodes for o in n.output}
    ready = set(known)
    out, pending = [], list(nodes)
    while pending:
        rest = []
        for n in pending:
            needs = [i for i in n.input if i and i in produced]
            if all(i in ready for i in needs):
                out.append(n)
                ready.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):  # a cycle or outer-scope names: keep the order
            out.extend(rest)
            break
        pending = rest
    return out


def read_ort(path: Path):
    """An ORT format model file as an onnx ModelProto."""
    from onnx import helper
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs import InferenceSession

    buf = Path(path).read_bytes()
    m = InferenceSession.InferenceSession.GetRootAsInferenceSession(buf, 0).Model()
    opsets = [helper.make_opsetid(_s(m.OpsetImport(i).Domain()), int(m.OpsetImport(i).Version()))
              for i in range(m.OpsetImportLength())]
    graph = _graph(m.Graph(), "main")
    model = helper.make_model(graph, opset_imports=opsets, producer_name="voice-host")
    model.ir_version = int(m.IrVersion())
    return model


FOLD = {"Cast", "Mul", "Add", "Sub", "Transpose", "DequantizeLinear"}


def fold_constants(graph) -> dict[str, np.ndarray]:
    """Evaluate the main graph's weight nodes (all inputs constant) with numpy."""
    from onnx import helper, numpy_helper

    consts = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for n in graph.node:
        if n.op_type not in FOLD or not all(i in consts for i in n.input if i):
            continue
        x = [consts[i] for i in n.input]
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if n.op_type == "Cast":
            y = x[0].astype(helper.tensor_dtype_to_np_dtype(attrs["to"]))
        elif n.op_type == "Mul":
            y = (x[0] * x[1]).astype(x[0].dtype)
        elif n.op_type == "Add":
            y = (x[0] + x[1]).astype(x[0].dtype)
        elif n.op_type == "Sub":
            y = (x[0] - x[1]).astype(x[0].dtype)
        elif n.op_type == "Transpose":
            y = np.transpose(x[0], attrs.get("perm"))
        else:  # DequantizeLinear, per tensor or per axis
            scale = x[1]
            zero = x[2] if len(x) > 2 else np.zeros_like(scale, dtype=x[0].dtype)
            axis = attrs.get("axis", 1)
            if scale.ndim == 1 and scale.size > 1:
                shape = [1] * x[0].ndim
                shape[axis] = -1
                scale, zero = scale.reshape(shape), zero.reshape(shape)
            y = ((x[0].astype(np.int32) - zero.astype(np.int32)) * scale).astype(np.float32)
        consts[n.output[0]] = np.ascontiguousarray(y)
    return consts
