// Real numbers only, wherever a binding takes a double or an Eigen vector of doubles.
//
// pybind11's own casters convert whatever NumPy converts: a complex array loses its imaginary
// part (with a mere ComplexWarning), np.complex128(1+2j) becomes 1.0, and an array of strings or
// of objects (np.array(["1", "2"]), dtype=object) is parsed element by element. These
// specializations of its casters for double, Eigen::VectorXd, Vector2d and Vector3d refuse such
// values first, so the call is pybind11's TypeError for an argument of the wrong type, which shows
// the function's signature (each argument's name and type) and the values it was given. Every
// binding file includes this header (through bindings.hpp or arguments.hpp) before it casts any
// of these types, as an explicit specialization must be seen before its first use.
#pragma once

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>

#include <utility>

namespace tinkertoy::python {

// Whether `value` is real as NumPy sees it: nothing complex, and for an array, a NumPy scalar or
// (when `sequence`) anything NumPy makes an array of, a boolean, integer or floating dtype (not
// complex, strings, bytes or objects).
bool isReal(pybind11::handle value, bool sequence);

}  // namespace tinkertoy::python

namespace pybind11::detail {

template <>
class type_caster<double> {
 public:
  bool load(handle src, bool convert) {
    if (!src || !tinkertoy::python::isReal(src, false)) return false;
    if (!convert && !PyFloat_Check(src.ptr())) return false;
    const double x = PyFloat_AsDouble(src.ptr());
    if (x == -1.0 && PyErr_Occurred() != nullptr) {
      const bool wrongType = PyErr_ExceptionMatches(PyExc_TypeError) != 0;
      PyErr_Clear();
      if (wrongType && convert && PyNumber_Check(src.ptr()) != 0) {  // as pybind11's: through float()
        const auto converted = reinterpret_steal<object>(PyNumber_Float(src.ptr()));
        PyErr_Clear();
        return converted && load(converted, false);
      }
      return false;
    }
    value = x;
    return true;
  }
  static handle cast(double x, return_value_policy /*policy*/, handle /*parent*/) { return PyFloat_FromDouble(x); }
  PYBIND11_TYPE_CASTER(double, const_name("float"));
};

// An Eigen vector of doubles: pybind11's caster of the same vector without alignment (the same
// conversions and the same name in signatures) after the check; values go back to Python as
// copies.
template <class Vector>
class real_vector_caster {
  using Unaligned = Eigen::Matrix<double, Vector::RowsAtCompileTime, 1, Eigen::DontAlign>;

 public:
  bool load(handle src, bool convert) {
    if (!src || !tinkertoy::python::isReal(src, true)) return false;
    type_caster<Unaligned> inner;
    if (!inner.load(src, convert)) return false;
    value = static_cast<Unaligned&>(inner);
    return true;
  }
  static handle cast(const Vector& x, return_value_policy /*policy*/, handle parent) {
    return type_caster<Unaligned>::cast(Unaligned(x), return_value_policy::move, parent);
  }
  static handle cast(const Vector* x, return_value_policy policy, handle parent) {
    if (x == nullptr) return none().release();
    return cast(*x, policy, parent);
  }
  static constexpr auto name = type_caster<Unaligned>::name;
  operator Vector*() { return &value; }
  operator Vector&() { return value; }
  operator Vector&&() && { return std::move(value); }
  template <class T>
  using cast_op_type = movable_cast_op_type<T>;

 private:
  Vector value;
};

template <>
class type_caster<Eigen::VectorXd> : public real_vector_caster<Eigen::VectorXd> {};
template <>
class type_caster<Eigen::Vector2d> : public real_vector_caster<Eigen::Vector2d> {};
template <>
class type_caster<Eigen::Vector3d> : public real_vector_caster<Eigen::Vector3d> {};

}  // namespace pybind11::detail
