"""The ``__init__`` of each shape of record reviewtui has, and ``__eq__``/``__hash__`` for
each number of fields up to the widest, compiled with the package.

Written by ``python -m reviewtui.core.record_inits`` (run it again when records change;
a shape missing here is compiled when its class is built, ~0.2 ms each). Each function is
a template (field i: ``_f{i}``, its default or factory: ``_g{i}``) that core/record.py
copies under a class's own names; none is ever called as it is here.
"""

# ruff: noqa
# mypy: ignore-errors


def init_mutable_self_FF(self, _f0, _f1):
    self._f0 = _g0() if _f0 is __record_factory__ else _f0
    self._f1 = _g1() if _f1 is __record_factory__ else _f1


def init_mutable_self_FFF(self, _f0, _f1, _f2):
    self._f0 = _g0() if _f0 is __record_factory__ else _f0
    self._f1 = _g1() if _f1 is __record_factory__ else _f1
    self._f2 = _g2() if _f2 is __record_factory__ else _f2


def init_mutable_self_FFFFFFFFFF(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9):
    self._f0 = _g0() if _f0 is __record_factory__ else _f0
    self._f1 = _g1() if _f1 is __record_factory__ else _f1
    self._f2 = _g2() if _f2 is __record_factory__ else _f2
    self._f3 = _g3() if _f3 is __record_factory__ else _f3
    self._f4 = _g4() if _f4 is __record_factory__ else _f4
    self._f5 = _g5() if _f5 is __record_factory__ else _f5
    self._f6 = _g6() if _f6 is __record_factory__ else _f6
    self._f7 = _g7() if _f7 is __record_factory__ else _f7
    self._f8 = _g8() if _f8 is __record_factory__ else _f8
    self._f9 = _g9() if _f9 is __record_factory__ else _f9


def init_mutable_self_FFV(self, _f0, _f1, _f2):
    self._f0 = _g0() if _f0 is __record_factory__ else _f0
    self._f1 = _g1() if _f1 is __record_factory__ else _f1
    self._f2 = _f2


def init_mutable_self_VFFFVVF(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    self._f0 = _f0
    self._f1 = _g1() if _f1 is __record_factory__ else _f1
    self._f2 = _g2() if _f2 is __record_factory__ else _f2
    self._f3 = _g3() if _f3 is __record_factory__ else _f3
    self._f4 = _f4
    self._f5 = _f5
    self._f6 = _g6() if _f6 is __record_factory__ else _f6


def init_mutable_self_VVFFFF(self, _f0, _f1, _f2, _f3, _f4, _f5):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _g2() if _f2 is __record_factory__ else _f2
    self._f3 = _g3() if _f3 is __record_factory__ else _f3
    self._f4 = _g4() if _f4 is __record_factory__ else _f4
    self._f5 = _g5() if _f5 is __record_factory__ else _f5


def init_mutable_self_VVFFV(self, _f0, _f1, _f2, _f3, _f4):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _g2() if _f2 is __record_factory__ else _f2
    self._f3 = _g3() if _f3 is __record_factory__ else _f3
    self._f4 = _f4


def init_mutable_self_VVVF(self, _f0, _f1, _f2, _f3):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _g3() if _f3 is __record_factory__ else _f3


def init_mutable_self_VVVVVFFFVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _f4
    self._f5 = _g5() if _f5 is __record_factory__ else _f5
    self._f6 = _g6() if _f6 is __record_factory__ else _f6
    self._f7 = _g7() if _f7 is __record_factory__ else _f7
    self._f8 = _f8
    self._f9 = _f9
    self._f10 = _f10
    self._f11 = _f11
    self._f12 = _f12


def init_mutable_self_VVVVVFVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _f4
    self._f5 = _g5() if _f5 is __record_factory__ else _f5
    self._f6 = _f6
    self._f7 = _f7


def init_mutable_self_VVVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _f4
    self._f5 = _f5
    self._f6 = _f6
    self._f7 = _f7
    self._f8 = _f8


def init_mutable_self_VVVVVVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _f4
    self._f5 = _f5
    self._f6 = _f6
    self._f7 = _f7
    self._f8 = _f8
    self._f9 = _f9
    self._f10 = _f10
    self._f11 = _f11


def init_mutable_self_VVVVVVVVVVVVVVVVFV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15, _f16, _f17):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _f4
    self._f5 = _f5
    self._f6 = _f6
    self._f7 = _f7
    self._f8 = _f8
    self._f9 = _f9
    self._f10 = _f10
    self._f11 = _f11
    self._f12 = _f12
    self._f13 = _f13
    self._f14 = _f14
    self._f15 = _f15
    self._f16 = _g16() if _f16 is __record_factory__ else _f16
    self._f17 = _f17


def init_frozen_self_FFV(self, _f0, _f1, _f2):
    __record_set__(self, '_f0', _g0() if _f0 is __record_factory__ else _f0)
    __record_set__(self, '_f1', _g1() if _f1 is __record_factory__ else _f1)
    __record_set__(self, '_f2', _f2)


def init_frozen_self_V(self, _f0):
    __record_set__(self, '_f0', _f0)


def init_frozen_self_VFFVFVF(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _g1() if _f1 is __record_factory__ else _f1)
    __record_set__(self, '_f2', _g2() if _f2 is __record_factory__ else _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _g4() if _f4 is __record_factory__ else _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _g6() if _f6 is __record_factory__ else _f6)


def init_frozen_self_VV(self, _f0, _f1):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)


def init_frozen_self_VVF(self, _f0, _f1, _f2):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _g2() if _f2 is __record_factory__ else _f2)


def init_frozen_self_VVV(self, _f0, _f1, _f2):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)


def init_frozen_self_VVVV(self, _f0, _f1, _f2, _f3):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)


def init_frozen_self_VVVV_post(self, _f0, _f1, _f2, _f3):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    self.__post_init__()


def init_frozen_self_VVVVV(self, _f0, _f1, _f2, _f3, _f4):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)


def init_frozen_self_VVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)


def init_frozen_self_VVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)


def init_frozen_self_VVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _f7)


def init_frozen_self_VVVVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _f7)
    __record_set__(self, '_f8', _f8)
    __record_set__(self, '_f9', _f9)


def init_frozen_self_VVVVVVVVVVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _f7)
    __record_set__(self, '_f8', _f8)
    __record_set__(self, '_f9', _f9)
    __record_set__(self, '_f10', _f10)
    __record_set__(self, '_f11', _f11)
    __record_set__(self, '_f12', _f12)
    __record_set__(self, '_f13', _f13)
    __record_set__(self, '_f14', _f14)
    __record_set__(self, '_f15', _f15)


def init_frozen_self_VVVVVVVVVVVVVVVVVVV(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15, _f16, _f17, _f18):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _f7)
    __record_set__(self, '_f8', _f8)
    __record_set__(self, '_f9', _f9)
    __record_set__(self, '_f10', _f10)
    __record_set__(self, '_f11', _f11)
    __record_set__(self, '_f12', _f12)
    __record_set__(self, '_f13', _f13)
    __record_set__(self, '_f14', _f14)
    __record_set__(self, '_f15', _f15)
    __record_set__(self, '_f16', _f16)
    __record_set__(self, '_f17', _f17)
    __record_set__(self, '_f18', _f18)


def init_frozen_self_VVVVVVVVVVVVVVVVVVVd(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15, _f16, _f17, _f18):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _f7)
    __record_set__(self, '_f8', _f8)
    __record_set__(self, '_f9', _f9)
    __record_set__(self, '_f10', _f10)
    __record_set__(self, '_f11', _f11)
    __record_set__(self, '_f12', _f12)
    __record_set__(self, '_f13', _f13)
    __record_set__(self, '_f14', _f14)
    __record_set__(self, '_f15', _f15)
    __record_set__(self, '_f16', _f16)
    __record_set__(self, '_f17', _f17)
    __record_set__(self, '_f18', _f18)
    __record_set__(self, '_f19', _g19)


def init_frozen_self_VVVVVVVd(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    __record_set__(self, '_f0', _f0)
    __record_set__(self, '_f1', _f1)
    __record_set__(self, '_f2', _f2)
    __record_set__(self, '_f3', _f3)
    __record_set__(self, '_f4', _f4)
    __record_set__(self, '_f5', _f5)
    __record_set__(self, '_f6', _f6)
    __record_set__(self, '_f7', _g7)


def eq_0(self, other):
    if other.__class__ is self.__class__:
        return () == ()
    return NotImplemented


def hash_0(self):
    return hash(())


def eq_1(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,) == (other._f0,)
    return NotImplemented


def hash_1(self):
    return hash((self._f0,))


def eq_2(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,) == (other._f0,other._f1,)
    return NotImplemented


def hash_2(self):
    return hash((self._f0,self._f1,))


def eq_3(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,) == (other._f0,other._f1,other._f2,)
    return NotImplemented


def hash_3(self):
    return hash((self._f0,self._f1,self._f2,))


def eq_4(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,) == (other._f0,other._f1,other._f2,other._f3,)
    return NotImplemented


def hash_4(self):
    return hash((self._f0,self._f1,self._f2,self._f3,))


def eq_5(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,) == (other._f0,other._f1,other._f2,other._f3,other._f4,)
    return NotImplemented


def hash_5(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,))


def eq_6(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,)
    return NotImplemented


def hash_6(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,))


def eq_7(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,)
    return NotImplemented


def hash_7(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,))


def eq_8(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,)
    return NotImplemented


def hash_8(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,))


def eq_9(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,)
    return NotImplemented


def hash_9(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,))


def eq_10(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,)
    return NotImplemented


def hash_10(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,))


def eq_11(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,)
    return NotImplemented


def hash_11(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,))


def eq_12(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,)
    return NotImplemented


def hash_12(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,))


def eq_13(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,)
    return NotImplemented


def hash_13(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,))


def eq_14(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,)
    return NotImplemented


def hash_14(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,))


def eq_15(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,)
    return NotImplemented


def hash_15(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,))


def eq_16(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,other._f15,)
    return NotImplemented


def hash_16(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,))


def eq_17(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,other._f15,other._f16,)
    return NotImplemented


def hash_17(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,))


def eq_18(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,other._f15,other._f16,other._f17,)
    return NotImplemented


def hash_18(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,))


def eq_19(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,self._f18,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,other._f15,other._f16,other._f17,other._f18,)
    return NotImplemented


def hash_19(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,self._f18,))


def eq_20(self, other):
    if other.__class__ is self.__class__:
        return (self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,self._f18,self._f19,) == (other._f0,other._f1,other._f2,other._f3,other._f4,other._f5,other._f6,other._f7,other._f8,other._f9,other._f10,other._f11,other._f12,other._f13,other._f14,other._f15,other._f16,other._f17,other._f18,other._f19,)
    return NotImplemented


def hash_20(self):
    return hash((self._f0,self._f1,self._f2,self._f3,self._f4,self._f5,self._f6,self._f7,self._f8,self._f9,self._f10,self._f11,self._f12,self._f13,self._f14,self._f15,self._f16,self._f17,self._f18,self._f19,))


def _write() -> None:
    import importlib
    import pkgutil
    from pathlib import Path

    import reviewtui
    from reviewtui.core import record

    for info in pkgutil.walk_packages(reviewtui.__path__, "reviewtui."):
        if not info.name.startswith(("reviewtui.ui", "reviewtui.__main__")):
            importlib.import_module(info.name)
    path = Path(__file__)
    text = path.read_text()
    head = text[:text.index("# mypy: ignore-errors\n") + len("# mypy: ignore-errors\n")]
    tail = text[text.index("\n\ndef _write() -> None:"):]
    shapes = sorted(record._SHAPES)
    made = "".join("\n\n" + record.template_source(record.premade_name(*key), *key)
                   for key in shapes)
    widest = max(len(key[2]) for key in shapes)
    made += "".join("\n\n" + record.compare_source(f"eq_{n}", f"hash_{n}", n)
                    for n in range(widest + 1))
    path.write_text(head + made + tail)
    print(f"{path}: {len(shapes)} shapes")


if __name__ == "__main__":
    _write()
