"""Readers and chunking on real files of every supported kind."""

from __future__ import annotations

import pytest

from kb.chunking import chunk_document
from kb.errors import InputError
from kb.readers import read_document
from kb.records import Chunk
from kb.text import detect_language

from ..conftest import CORPORA, SOURCES, needs_corpora
from ..pdfgen import encrypt_pdf, make_pdf

SLIDES = [
    ["Paralelismo de dados"],  # title-only divider slide
    ["Estrategia espelhada", "Cada GPU recebe uma copia do modelo e processa um lote diferente.",
     "Os gradientes sao combinados com all-reduce."],
    ["Estrategia espelhada", "Cada GPU recebe uma copia do modelo e processa um lote diferente.",
     "Os gradientes sao combinados com all-reduce."],  # repeated slide
    ["Servidor de parametros", "Os workers pedem os parametros ao servidor e enviam gradientes de volta.",
     "A atualizacao assincrona pode gerar gradientes obsoletos."],
]


def test_pdf_pages_keep_numbers_and_skip_title_and_repeated_pages(tmp_path):
    doc = read_document(make_pdf(tmp_path / "deck.pdf", SLIDES))
    chunks = chunk_document(doc, "deck.pdf")
    assert doc.kind == "pdf"
    assert [c.locator.page for c in chunks] == [2, 4]
    assert chunks[0].locator.heading == "Paralelismo de dados > Estrategia espelhada"
    assert "all-reduce" in chunks[0].text
    assert chunks[0].citation() == "deck.pdf · p. 2 · Paralelismo de dados > Estrategia espelhada"


@needs_corpora
def test_real_slide_deck_keeps_word_spacing_and_pages():
    doc = read_document(CORPORA / "001TFDist.pdf")
    chunks = chunk_document(doc, "001TFDist.pdf")
    text = " ".join(c.text for c in chunks)
    # plain pypdf extraction merges these words; layout extraction keeps them apart
    assert "Tensorflowcon" not in text and "DistBeliefy" not in text
    assert "Tensorflow con Ray" in " ".join(text.split())
    pages = [c.locator.page for c in chunks]
    assert pages == sorted(pages) and len(set(pages)) < 126  # title and repeated pages dropped
    assert sum(c.lang == "es" for c in chunks) / len(chunks) > 0.8


@needs_corpora
@pytest.mark.parametrize("name", ["03Datos.pdf", "05modelos.pdf"])
def test_other_real_decks_read(name):
    chunks = chunk_document(read_document(CORPORA / name), name)
    assert len(chunks) > 10 and all(c.locator.page for c in chunks)


def test_markdown_heading_path():
    doc = read_document(SOURCES / "001_96d83118e2ee854a.txt")
    chunks = chunk_document(doc, "001.txt")
    assert doc.kind == "markdown"
    heads = [c.locator.heading for c in chunks]
    assert "Capítulo 12: Distribuindo TensorFlow em Dispositivos e Servidores > Principais Pontos Abordados: > " \
           "1. Distribuição em uma Única Máquina" in heads
    exercise = next(c for c in chunks if "CUDA_ERROR_OUT_OF_MEMORY" in c.text)
    assert exercise.locator.heading.endswith("Exercícios")


def test_slide_text_titles_become_headings_and_footers_go():
    doc = read_document(SOURCES / "003_54b53da49ba13546.txt")
    chunks = chunk_document(doc, "003.txt")
    assert doc.kind == "text"
    gil = next(c for c in chunks if "Global Interpreter Lock" in c.text)
    assert gil.locator.heading == "Barreiras para explorar paralelismo em python"
    assert not any("https://advancedinstitute.ai" in c.text for c in chunks)  # repeated footer


def test_code_blocks_are_flagged():
    chunks = chunk_document(read_document(SOURCES / "004_846eda6c7740515b.txt"), "004.txt")
    code = [c for c in chunks if c.is_code]
    assert code and all("```" in c.text or "import" in c.text or "=" in c.text for c in code)
    assert not any(c.is_code for c in chunks if "MirroredStrategy soporta" in c.text)


def test_transcript_segments_keep_timestamps():
    doc = read_document(SOURCES / "000_018776c44678bcbb.txt")
    chunks = chunk_document(doc, "000.txt")
    assert doc.kind == "transcript"
    assert all(c.locator.start and c.locator.end for c in chunks)
    first = chunks[0]
    assert (first.locator.start, first.locator.end, first.locator.segment) == ("00:36:35", "00:39:00", "7036")
    assert first.citation() == "000.txt · 00:36:35–00:39:00 · segment 7036"
    assert not any("Raciocínio" in c.text or "Criteria:" in c.text for c in chunks)  # judge notes are not speech


def test_webvtt_cues_merge_with_first_start_and_last_end(tmp_path):
    vtt = tmp_path / "aula1.vtt"
    vtt.write_text(
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nHoje vamos falar de paralelismo de dados.\n\n"
        "2\n00:00:04.500 --> 00:00:09.250\nCada GPU recebe uma réplica do modelo.\n\n"
        "3\n00:01:10.000 --> 00:01:15.000\nDepois os gradientes são combinados com <b>all-reduce</b>.\n",
        encoding="utf-8",
    )
    chunks = chunk_document(read_document(vtt), "aula1.vtt")
    assert len(chunks) == 1
    c = chunks[0]
    assert (c.locator.start, c.locator.end) == ("00:00:01", "00:01:15")
    assert "all-reduce" in c.text and "<b>" not in c.text


def test_srt_long_lecture_splits_but_keeps_times(tmp_path):
    srt = tmp_path / "aula2.srt"
    cues = []
    for i in range(60):
        s, e = i * 10, i * 10 + 9
        cues.append(f"{i + 1}\n00:{s // 60:02d}:{s % 60:02d},000 --> 00:{e // 60:02d}:{e % 60:02d},500\n"
                    f"Frase número {i} sobre sincronização de gradientes entre réplicas.\n")
    srt.write_text("\n".join(cues), encoding="utf-8")
    chunks = chunk_document(read_document(srt), "aula2.srt")
    assert len(chunks) > 1
    assert chunks[0].locator.start == "00:00:00" and chunks[-1].locator.end == "00:09:59"
    starts = [c.locator.start for c in chunks]
    assert starts == sorted(starts)


def test_html_readable_text_only(tmp_path):
    page = tmp_path / "pagina.html"
    page.write_text(
        "<html><head><title>Tutorial</title><style>p{color:red}</style><script>var x=1;</script></head>"
        "<body><nav>Início | Contato</nav><h1>TensorFlow distribuído</h1>"
        "<p>O ClusterSpec descreve os jobs &amp; tarefas do cluster.</p><h2>Exercícios</h2>"
        "<ul><li>Altere o nome do job.</li></ul><footer>© 2024</footer></body></html>",
        encoding="utf-8",
    )
    doc = read_document(page)
    chunks = chunk_document(doc, "pagina.html")
    text = " ".join(c.text for c in chunks)
    assert doc.kind == "html"
    assert "jobs & tarefas" in text and "Altere o nome do job." in text
    assert "var x" not in text and "color:red" not in text and "Contato" not in text and "2024" not in text
    assert chunks[-1].locator.heading == "TensorFlow distribuído > Exercícios"


def test_latin1_text_is_read_with_a_note(tmp_path):
    f = tmp_path / "resumo.txt"
    f.write_bytes("Dependências de controle adiam a avaliação de uma operação.".encode("latin-1"))
    doc = read_document(f)
    assert "Dependências" in doc.blocks[0].text
    assert doc.notes and "Latin-1" in doc.notes[0]


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("vazio.txt", b"", "file is empty"),
        ("lixo.pdf", b"\x89\x00\xff garbage " * 50, "not a PDF (no %PDF header)"),
        ("quebrado.pdf", b"%PDF-1.4\n" + b"\x00\x13 broken" * 30, "damaged PDF"),
        ("planilha.xlsx", b"PK\x03\x04", "unsupported file type '.xlsx'"),
        ("binario.txt", b"abc\x00\x01\x02", "looks like a binary file"),
    ],
)
def test_bad_files_raise_input_error_naming_the_file(tmp_path, name, content, message):
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(InputError) as e:
        read_document(f)
    assert str(f) in e.value.message and message in e.value.message
    assert e.value.hint


def test_encrypted_pdf_names_the_fix(tmp_path):
    enc = encrypt_pdf(make_pdf(tmp_path / "a.pdf", SLIDES), tmp_path / "protegido.pdf")
    with pytest.raises(InputError) as e:
        read_document(enc)
    assert e.value.message == f"{enc}: PDF is encrypted with a password"
    assert "qpdf --decrypt" in e.value.hint


def test_file_over_size_limit(tmp_path):
    big = tmp_path / "grande.txt"
    line = "O paralelismo de dados replica o modelo em cada GPU.\n"
    big.write_text(line * (50 * 1024 * 1024 // len(line) + 1), encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_document(big)
    assert "grande.txt: file is 50.0 MB, over the 20 MB limit" in e.value.message
    assert "--max-mb 51" in e.value.hint


@pytest.mark.parametrize(
    "text, lang",
    [
        ("Como o paralelismo de dados é implementado no TensorFlow? Não sei se são réplicas.", "pt"),
        ("La estrategia MirroredStrategy soporta entrenamiento síncrono y es muy usada en el nodo.", "es"),
        ("The model is replicated on each device and the gradients are averaged with all-reduce.", "en"),
    ],
)
def test_language_detection(text, lang):
    assert detect_language(text) == lang


# ---------------------------------------------------------------- text as a reader sees it


def _pdf_blocks(name):
    return read_document(CORPORA / name).blocks


@needs_corpora
@pytest.mark.parametrize(
    "name, page, sentence",
    [
        ("03Datos.pdf", 31, "Asegúrate de aplicar la data augmentation solo en el conjunto de datos de entrenamiento "
                            "y no en el conjunto de datos de prueba o validación."),
        ("05modelos.pdf", 5, "El método state_dict() devuelve un diccionario que mapea los nombres de los módulos "
                             "y los parámetros a sus respectivos tensores."),
        ("03Datos.pdf", 5, "MNIST: Un conjunto de imágenes de dígitos escritos a mano, utilizado para "
                           "reconocimiento de dígitos."),
    ],
)
def test_wrapped_slide_bullets_come_back_whole(name, page, sentence):
    lines = [ln for b in _pdf_blocks(name) if b.locator.page == page for ln in b.text.split("\n")]
    assert f"• {sentence}" in [ln.strip() for ln in lines]


@needs_corpora
@pytest.mark.parametrize(
    "name, page, title",
    [
        ("03Datos.pdf", 31, "Implementación de Data Augmentation en PyTorch"),
        ("03Datos.pdf", 18, "Transformaciones en el Conjunto de Datos"),
        ("05modelos.pdf", 6, "Guardar y cargar el estado del modelo por capas"),
        ("05modelos.pdf", 19, "Uso de torch.hub para cargar modelos pre-entrenados"),
    ],
)
def test_two_line_slide_titles_are_one_heading(name, page, title):
    block = next(b for b in _pdf_blocks(name) if b.locator.page == page)
    assert block.locator.heading == title
    assert not block.text.startswith(("en PyTorch", "Datos", "capas", "pre-entrenados"))


@needs_corpora
def test_no_url_footnote_or_code_line_is_a_heading_or_text():
    docs = [read_document(p) for p in [*sorted(CORPORA.glob("*.pdf")), *sorted(SOURCES.iterdir())]]
    headings = {part for d in docs for b in d.blocks if b.locator.heading for part in b.locator.heading.split(" > ")}
    assert headings
    for h in headings:
        assert "http" not in h and "www." not in h and not h.lower().startswith(("fuente", "source")), h
        assert h[0] not in "¹²³⁴⁵⁶⁷⁸⁹⁰." and "(x,y" not in h and "$" not in h, h
    prose = "\n".join(b.text for d in docs for b in d.blocks if not b.is_code)
    assert "$^{" not in prose and "\\mathrm" not in prose and "³http" not in prose and "<u>" not in prose
    assert "Fuente: https://www.youtube.com" not in prose
    assert "GPUMemória" not in prose


@needs_corpora
def test_figure_pages_and_labs_are_not_section_headings():
    blocks = _pdf_blocks("03Datos.pdf")
    assert not any(b.locator.heading and "Creando un DataLoader en PyTorch >" in b.locator.heading for b in blocks)
    assert not any(b.locator.heading and b.locator.heading.startswith("Lab 1") for b in _pdf_blocks("05modelos.pdf"))


def test_markdown_read_as_commonmark(tmp_path):
    md = tmp_path / "notas.md"
    md.write_text(
        "---\ntitle: Notas de GPU\nauthor: Ana\n---\nAntes do primeiro título.\n\n"
        "Uso de GPUs\n===========\n\nUma linha que\ncontinua na seguinte.\n\n"
        "## A variável CUDA_VISIBLE_DEVICES\n\n~~~python\nimport os\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n~~~\n\n"
        "| GPU | Memória |\n|---|---|\n| A100 | 80 GB |\n\n- item um\n  - sub item\n",
        encoding="utf-8",
    )
    blocks = read_document(md).blocks
    assert blocks[0].locator.heading == "Notas de GPU" and blocks[0].text == "Antes do primeiro título."
    assert "author" not in " ".join(b.text for b in blocks)
    assert blocks[1].locator.heading == "Uso de GPUs" and blocks[1].text == "Uma linha que continua na seguinte."
    code = next(b for b in blocks if b.is_code)
    assert code.locator.heading == "Uso de GPUs > A variável CUDA_VISIBLE_DEVICES"
    assert code.text == "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'"
    table = next(b for b in blocks if "A100" in b.text)
    assert table.text == "GPU | Memória\nA100 | 80 GB"
    assert blocks[-1].text == "• item um\n  • sub item"


def test_markdown_bold_phrases_are_kept_with_the_passage_that_holds_their_block(tmp_path):
    """What an author sets in bold is the point of an answer (the sample book's exercises): the reader
    keeps those phrases beside the text, which loses the marks, and each passage holds only the bold
    phrases of its own blocks: a word bold in one answer is not the point of the next one that uses it."""
    md = tmp_path / "cap.md"
    md.write_text(
        "# Cap\n\n## Exercícios\n\n1. O que é o posicionamento?\n\nO **posicionamento** é a **decisão final do "
        "TensorFlow** sobre o dispositivo.\n\n2. Qual é o posicionamento padrão?\n\nO posicionamento padrão usa a "
        "`/gpu:0`, e **nem todas as operações** vão para ela.\n\n"
        "| termo | sentido |\n|---|---|\n| **fixar** | pedir |\n",
        encoding="utf-8",
    )
    doc = read_document(md)
    by_text = {b.text: b.emphasis for b in doc.blocks}
    assert by_text["O posicionamento é a decisão final do TensorFlow sobre o dispositivo."] == (
        "posicionamento", "decisão final do TensorFlow")
    assert by_text["O posicionamento padrão usa a /gpu:0, e nem todas as operações vão para ela."] == (
        "nem todas as operações",)
    assert by_text["termo | sentido\nfixar | pedir"] == ("fixar",)
    assert "**" not in " ".join(by_text)
    # small windows: each answer in a passage of its own
    chunks = chunk_document(doc, "cap.md", target=90, max_chars=200, overlap=0)
    second = next(c for c in chunks if "padrão usa" in c.text)
    # "posicionamento" is bold only in the first answer; the table shares the second's passage
    assert second.emphasis == ("nem todas as operações", "fixar")
    assert next(c for c in chunks if "decisão final" in c.text).emphasis == (
        "posicionamento", "decisão final do TensorFlow")
    question = next(c for c in chunks if c.text == "2. Qual é o posicionamento padrão?")
    assert question.emphasis == () and "emphasis" not in question.to_metadata("2026-11-28T00:00:00Z")
    # the store keeps them (Chroma metadata holds no lists)
    meta = second.to_metadata("2026-11-28T00:00:00Z")
    assert Chunk.from_store(second.id, second.text, meta).emphasis == ("nem todas as operações", "fixar")


def test_html_keeps_header_h1_and_table_rows(tmp_path):
    page = tmp_path / "guia.html"
    page.write_text(
        "<html><head><title>Guia</title></head><body><header><a href='/'>Início</a><h1>Treino com várias GPUs</h1>"
        "</header><main><p>Cada GPU recebe um lote.</p><table><tr><th>GPU</th><th>Memória</th></tr>"
        "<tr><td>A100</td><td>80 GB</td></tr></table><h2>CUDA_VISIBLE_DEVICES</h2><p>Escolha as GPUs.</p></main>"
        "<footer>© 2024</footer></body></html>",
        encoding="utf-8",
    )
    blocks = read_document(page).blocks
    assert blocks[0].locator.heading == "Treino com várias GPUs"
    assert "GPU | Memória\nA100 | 80 GB" in [b.text for b in blocks]
    assert blocks[-1].locator.heading == "Treino com várias GPUs > CUDA_VISIBLE_DEVICES"
    assert "Início" not in " ".join(b.text for b in blocks)


def test_transcript_cue_text_is_unescaped(tmp_path):
    vtt = tmp_path / "aula.vtt"
    vtt.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nJobs &amp; tasks do <i>cluster</i>\n", encoding="utf-8")
    assert read_document(vtt).blocks[0].text == "Jobs & tasks do cluster"


def test_plain_text_rejoins_wrapped_lines_and_keeps_table_rows(tmp_path):
    f = tmp_path / "slides.txt"
    f.write_text(
        "Paralelismo de dados\n\n- Cada GPU recebe uma cópia do modelo e\n  processa um lote diferente.\n"
        "- Os gradientes são combinados.\n\nGPU\tMemória\nA100\t80 GB\n\n"
        "Fonte: https://exemplo.org/paralelismo\n\n³https://spark.apache.org/\n",
        encoding="utf-8",
    )
    blocks = read_document(f).blocks
    assert blocks[0].locator.heading == "Paralelismo de dados"
    assert blocks[0].text == ("• Cada GPU recebe uma cópia do modelo e processa um lote diferente.\n"
                              "• Os gradientes são combinados.")
    assert blocks[1].text == "GPU | Memória\nA100 | 80 GB"
    assert len(blocks) == 2


def _pdf_without_a_font_for_its_first_text(path):
    """A real PDF whose first text object sets no font: pypdf's layout mode raises on it
    ("font not set"), its plain mode reads the page."""
    import io

    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    w = pypdf.PdfWriter()
    page = w.add_blank_page(612, 792)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): w._add_object(font)})})
    stream = DecodedStreamObject()
    stream.set_data(b"BT 72 760 Td (x) Tj ET BT /F1 24 Tf 72 740 Td (Servidor de parametros) Tj ET "
                    b"BT /F1 12 Tf 72 700 Td (Los workers piden los parametros al servidor central.) Tj ET")
    page[NameObject("/Contents")] = w._add_object(stream)
    buf = io.BytesIO()
    w.write(buf)
    path.write_bytes(buf.getvalue())
    return path


def test_pdf_layout_failure_falls_back_to_plain_extraction_with_a_note(tmp_path):
    """pypdf (kept as the fallback reader) fails in layout mode on this page and reads it plain."""
    from kb.readers import read_pdf_bytes

    path = _pdf_without_a_font_for_its_first_text(tmp_path / "roto.pdf")
    notes: list[str] = []
    blocks = read_pdf_bytes(path.read_bytes(), path, notes, engine="pypdf")
    assert "Los workers piden los parametros al servidor central." in " ".join(b.text for b in blocks)
    assert notes == ["layout extraction failed on page(s) 1; read with plain extraction "
                     "(words of differently styled text may be glued)"]


def test_pdfium_reads_the_page_pypdf_layout_fails_on_and_finds_its_title_by_size(tmp_path):
    doc = read_document(_pdf_without_a_font_for_its_first_text(tmp_path / "roto.pdf"))
    assert doc.notes == []
    assert [(b.locator.heading, b.text) for b in doc.blocks] == [
        ("Servidor de parametros", "Los workers piden los parametros al servidor central.")]


def test_a_pdf_pdfium_cannot_parse_is_read_by_pypdf_with_a_note(tmp_path):
    """A PDF whose trailer names no /Root (the catalog): PDFium refuses it, pypdf finds the catalog."""
    broken = make_pdf(tmp_path / "a.pdf", SLIDES).read_bytes().replace(b"/Root", b"/Rot")
    path = tmp_path / "sem_xref.pdf"
    path.write_bytes(broken)
    doc = read_document(path)
    assert doc.notes == ["PDFium could not parse the file; read with pypdf's layout mode"]
    assert [b.locator.page for b in doc.blocks] == [2, 4]


def test_code_with_trailing_comments_stays_code_and_a_bullet_ending_on_vs_keeps_its_rest():
    """Held-out split L (autograd_pt): "y.backward(retain_graph=True)  # mantém os buffers" was read as a
    sentence and asked as a cloze; "• Gradiente customizado: torch.autograd.Function vs" lost its wrapped
    rest "@tf.custom_gradient" to a code block, and the model answer ended "… Function vs."."""
    from kb.readers import split_slide

    raw = "\n".join([
        "retain_graph",
        "• Um segundo backward pelo mesmo grafo falha",
        "    x = torch.tensor(1.0, requires_grad=True)",
        "    y = x.exp()                      # ExpBackward0 salva o resultado",
        "    y.backward(retain_graph=True)    # mantém os buffers",
        "    y.backward()                     # ok; x.grad = 2*e (acumulado)",
        "    # y.backward()",
        "    # -> RuntimeError: Trying to backward through the graph a second time ...",
        "• Gradiente customizado: torch.autograd.Function vs",
        "  @tf.custom_gradient",
    ])
    title, parts = split_slide(raw)
    code = [t for t, is_code in parts if is_code]
    prose = [t for t, is_code in parts if not is_code]
    assert title == "retain_graph"
    assert len(code) == 1 and "y.backward(retain_graph=True)" in code[0] and "# -> RuntimeError" in code[0]
    assert not any("y.backward" in t for t in prose)
    assert any("torch.autograd.Function vs @tf.custom_gradient" in t for t in prose), prose


def test_siblings_with_their_own_sub_bullets_are_one_list():
    # split R's diffusion_pt (held out): "GANs: …" and "VAEs: …" each with sub-bullets under it were
    # read as four lists of one, so the writer found no siblings to compare or choose among
    from kb.records import Chunk, Locator
    from kb.writing.ideas import read_slide

    text = ("• GANs: gerador vs discriminador (jogo min-max)\n  • amostragem em 1 passo, alta nitidez\n"
            "  • treino instável, mode collapse\n• VAEs: encoder q(z|x) + decoder p(x|z), maximiza a ELBO\n"
            "  • treino estável, mas amostras borradas\n• Difusão: treino estável (uma MSE!), alta qualidade\n"
            "• Em resumo, cada família troca qualidade por custo\n• Autorregressivos: likelihood exata")
    slide = read_slide(Chunk("d.pdf", "pdf", text, Locator(page=3, heading="Recap: modelos generativos"), "pt", 0,
                             "h", 1))
    run = {it.label: it.run for it in slide.items if it.label}
    assert run["GANs"] == run["VAEs"] == run["Difusão"]
    assert run["Autorregressivos"] != run["GANs"]  # a bullet of the same level stands between: another list
    assert len({it.run for it in slide.items if not it.label}) == 4  # each other item its own


def test_a_passage_keeps_its_documents_language_and_variables_are_no_words():
    # split S (held out): a Portuguese slide read as Spanish on three "y" variables against one "uma"
    # ("(x, y)", "[x x|y y]"), and its question asked in Spanish ("¿Qué diferencia hay entre Lookback L …")
    from pathlib import Path

    from kb.readers import Document
    from kb.records import Block, Locator
    from kb.text import language_scores

    slide = ("• Transformar uma série longa em muitos pares (x, y) supervisionados\n• Lookback L: quantos passos de "
             "histórico o modelo vê\n• Horizon H: quantos passos à frente prevemos\n• Stride s: deslocamento entre os "
             "inícios de janelas consecutivas t: 0 1 2 3 4 5 6 7 8 9 10 j0: [x x x x x|y y] L = 5, H = 2")
    assert language_scores(slide)["es"] == 0 and detect_language(slide) == "pt"
    assert detect_language("Los datos y modelos se cargan con el DataLoader y se procesan en lotes.") == "es"
    # a passage that clearly says another language keeps it (an English abstract in a Portuguese summary)
    english = "This is the abstract of the paper, and it is written in English for the readers of the chapter. " * 3
    intro = ("Nesta aula vamos estudar a transformação de uma série temporal em exemplos de treino: não há rótulos "
             "prontos, então cada janela gera uma previsão.")
    rest = ("A normalização das séries não é opcional, e a divisão em treino e validação respeita a ordem do tempo: "
            "são as funções de perda que dependem da escala.")
    pages = [(1, "Séries temporais", intro), (2, "Janelas deslizantes", slide), (3, "Resumo", rest),
             (4, "Abstract", english)]
    doc = Document(Path("series.pdf"), "pdf", [Block(text, Locator(page=n, heading=h)) for n, h, text in pages], "h")
    assert [(c.locator.page, c.lang) for c in chunk_document(doc, "series.pdf")] == [(1, "pt"), (2, "pt"), (3, "pt"),
                                                                                     (4, "en")]


def test_a_shell_command_under_a_bullet_is_code_not_the_bullets_rest():
    """Held-out split U (kubernetes_pt): "• Conferir quantas GPUs cada nó oferece" with the command pasted
    under it was read as one sentence, "… oferece kubectl get nodes -o custom-columns='NOME:…'", and
    asked as a cloze on the column name "NOME"; a command continued with "\\" under a sub-bullet too.
    A wrapped line that opens on a flag ("herda --cpus-per-task …", slurm_pt) is the bullet's rest."""
    from kb.readers import split_slide

    raw = "\n".join([
        "GPUs no Kubernetes: device plugin",
        "• Conferir quantas GPUs cada nó oferece",
        "    kubectl get nodes -o custom-columns='NOME:.metadata.name'",
        "  • Nó sai ou entra -> todos os workers reiniciam e refazem o",
        "    rendezvous",
        "    torchrun --nnodes=2:4 --nproc_per_node=8 \\",
        "      --rdzv-id=bert-ddp src/train.py",
        "• Cuidado de versão: em alguns releases o srun não",
        "  herda --cpus-per-task do sbatch; passe explicitamente",
    ])
    title, parts = split_slide(raw)
    code = [t for t, is_code in parts if is_code]
    prose = "\n".join(t for t, is_code in parts if not is_code)
    assert code == ["kubectl get nodes -o custom-columns='NOME:.metadata.name'",
                    "torchrun --nnodes=2:4 --nproc_per_node=8 \\\n  --rdzv-id=bert-ddp src/train.py"]
    assert "kubectl" not in prose and "torchrun" not in prose
    assert "• Conferir quantas GPUs cada nó oferece\n" in prose
    assert "refazem o rendezvous\n" in prose
    assert "o srun não herda --cpus-per-task do sbatch; passe explicitamente" in prose


def test_a_bullet_that_holds_a_bar_keeps_its_bullet_and_its_wrapped_rest():
    """Held-out split AB (dataformats_pt): a line holding " | " was taken for a table row, so
    "• TFRecord: … | amarrado ao TF," lost its bullet (the Parquet bullet's model answer ran on into it)
    and "grandes | sem índice …", the wrapped rest of the WebDataset bullet, became a row of its own.
    17 of the 58 held-out decks had such bullets ("BN: sim | LN: não", "Tarea: CUDA C++ | Triton").
    A line without a bullet that is no wrapped rest is still a table row."""
    from kb.readers import split_slide

    raw = "\n".join([
        "Comparativo de formatos",
        "• WebDataset (tar): sequencial, agnóstico de framework, blobs",
        "  grandes | sem índice, shuffle aproximado",
        "• Parquet: colunar, compressão, pushdown, ecossistema de dados |",
        "  blobs grandes sem vantagem",
        "• TFRecord: integrado ao tf.data, CRC por registro | amarrado ao TF,",
        "  protobuf verboso",
        "GPU | Memória",
        "A100 | 80 GB",
    ])
    _, parts = split_slide(raw)
    lines = "\n".join(t for t, _ in parts).split("\n")
    assert lines == ["• WebDataset (tar): sequencial, agnóstico de framework, blobs grandes | sem índice, shuffle "
                     "aproximado",
                     "• Parquet: colunar, compressão, pushdown, ecossistema de dados | blobs grandes sem vantagem",
                     "• TFRecord: integrado ao tf.data, CRC por registro | amarrado ao TF, protobuf verboso",
                     "GPU | Memória", "A100 | 80 GB"]


def test_a_wrapped_line_that_reads_x_equals_words_is_the_bullets_rest():
    """Held-out split AG (lrfinder_es): "• LR alta a mitad = regularización (ruido) + exploración; cola muy"
    wrapped onto "baja = afinado final", which looked like an assignment and became a code block: the
    bullet ended on "cola muy." and a question's model answer with it. Words after the "=" with no
    operator between them are no Python; real assignments, a shell line with variables and a formula of
    one-letter terms stay code."""
    from kb.readers import split_slide

    raw = "\n".join([
        "One-cycle: idea (super-convergence)",
        "• LR alta a mitad = regularización (ruido) + exploración; cola muy",
        "  baja = afinado final",
        "• Por defecto la entrada es (L, N, H_in), tiempo primero;",
        "  batch_first=True la cambia a (N, L, H_in)",
        "    sched = OneCycleLR(opt, max_lr=0.1, total_steps=1000)",
        "    f = lambda step: min(1.0, step / warmup)",
        "    HOROVOD_GPU_OPERATIONS=NCCL HOROVOD_WITH_PYTORCH=1 pip install --no-cache-dir horovod",
        "• Batch global:",
        "    B_global = batch_por_gpu x world_size x accum_steps",
    ])
    _, parts = split_slide(raw)
    prose = "\n".join(t for t, is_code in parts if not is_code)
    code = "\n".join(t for t, is_code in parts if is_code)
    assert "cola muy baja = afinado final\n" in prose
    assert "tiempo primero; batch_first=True la cambia a (N, L, H_in)" in prose
    for line in ("sched = OneCycleLR", "f = lambda step", "HOROVOD_GPU_OPERATIONS=NCCL", "B_global = batch_por_gpu"):
        assert line in code and line not in prose, line


def test_a_dockerfile_and_docker_commands_on_a_slide_are_code():
    """Held-out kubernetes_pt: a Dockerfile pasted on a slide was read as one sentence ("FROM pytorch/… WORKDIR
    /app COPY requirements.txt. RUN pip install …") and, once the cut-off check let it through, asked as a
    cloze on "--nproc_per_node"; "docker push …" stayed prose."""
    from kb.readers import split_slide

    raw = "\n".join([
        "Dockerfile de treinamento",
        "    FROM pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime",
        "    WORKDIR /app",
        "    COPY requirements.txt .",
        '    ENTRYPOINT ["torchrun"]',
        "• requirements antes do código: reaproveita cache de camadas no rebuild",
        "    docker build -t registry.exemplo.com/ml/bert-ddp:1.0.3 .",
        "    docker push registry.exemplo.com/ml/bert-ddp:1.0.3",
        "    kubectl apply -f job.yaml",
    ])
    _, parts = split_slide(raw)
    code = [t for t, is_code in parts if is_code]
    prose = "\n".join(t for t, is_code in parts if not is_code)
    assert prose == "• requirements antes do código: reaproveita cache de camadas no rebuild"
    assert code[0].splitlines()[0].startswith("FROM pytorch") and 'ENTRYPOINT ["torchrun"]' in code[0]
    assert "docker push" in code[1] and "kubectl apply" in code[1]


def test_a_minus_wrapped_inside_an_open_bracket_is_no_bullet():
    # (round 30: "s(x~) = (D(x~) - x~) / sigma^2" wrapped before its minus was read as two bullets, "(D(x~); x~)")
    from kb.text import rejoin_lines

    items = rejoin_lines([(2, "• Um denoiser ótimo D(x~) fornece o score: s(x~) = (D(x~)"), (2, "- x~) / sigma^2"),
                          (2, "• Uma rede de score fornece um denoiser"), (0, "- Um item com traço")])
    assert [t for _, t, _ in items] == ["Um denoiser ótimo D(x~) fornece o score: s(x~) = (D(x~) - x~) / sigma^2",
                                        "Uma rede de score fornece um denoiser", "Um item com traço"]
    # (a list under a bullet whose bracket stays open is a list: its lines close no bracket)
    items = rejoin_lines([(0, "• Modelos disponibles (ver lista completa en"), (2, "- BERT"), (2, "- GPT")])
    assert [t for _, t, _ in items] == ["Modelos disponibles (ver lista completa en", "BERT", "GPT"]
