"""A line of C, C++ or CUDA on a slide is code (kb.text.c_code_line; chunker v13): the Python-shaped patterns read
"cg::thread_block block = cg::this_thread_block();" as prose, so the reader glued a CUDA deck's code to the bullet
above it and the writer answered "¿qué es thread_block?" with the code pasted in its sentence (round 28, coopgroups_es:
all three raters fixed it as a code dump). Prose that ends on a semicolon stays prose."""

from __future__ import annotations

import pytest

from kb.readers.slides import split_slide
from kb.text import c_code_line

PAGE = """thread_block

• Representa el bloque actual; equivale a lo que ya conocemos con
  otra sintaxis
    cg::thread_block block = cg::this_thread_block();
    block.sync(); // equivale a __syncthreads()
    if (tile.thread_rank() == 0) out[row] = v;
• Ventaja frente a __syncthreads(): el objeto se puede pasar a
  funciones y particionar"""


def test_a_cuda_block_under_a_bullet_is_code_of_its_own():
    _, parts = split_slide(PAGE)
    assert parts[0] == ("• Representa el bloque actual; equivale a lo que ya conocemos con otra sintaxis", False)
    assert parts[1] == ("cg::thread_block block = cg::this_thread_block();\nblock.sync(); // equivale a "
                        "__syncthreads()\nif (tile.thread_rank() == 0) out[row] = v;", True)
    assert parts[2][0].startswith("• Ventaja frente a __syncthreads()") and not parts[2][1]


@pytest.mark.parametrize("line", ["#include <cuda_runtime.h>", "__global__ void k(float* x, int n) {", "}",
                                  "float v = 0.f;", "namespace cg = cooperative_groups;", "atomicAdd(&count[i], 1);"])
def test_lines_of_c_are_code(line):
    assert c_code_line(line)


@pytest.mark.parametrize("line", ["memoria compartida (L2);", "usa atomics; es más lento",
                                  "Ventaja: el objeto se puede pasar a funciones;", "Tiempo: 3 ms (A100);"])
def test_prose_that_ends_on_a_semicolon_is_prose(line):
    assert not c_code_line(line)
