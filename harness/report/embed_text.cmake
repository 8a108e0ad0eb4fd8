# cmake -DIN=docs/errors.md -DOUT=errors_md.cpp -DFUNCTION=errors_markdown -P embed_text.cmake
# Writes OUT, a C++ source whose function tujit::report::FUNCTION() returns the bytes of IN (as a
# byte array: no length limit of string literals, no delimiter to escape).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR bytes "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n" body "${body}")
file(WRITE "${OUT}"
     "// Generated from ${IN} by harness/report/embed_text.cmake: do not edit.\n"
     "#include <string_view>\n"
     "namespace tujit::report {\n"
     "namespace {\nconst unsigned char kText[${bytes} + 1] = {\n${body}0};\n}\n"
     "std::string_view ${FUNCTION}() {\n  return {reinterpret_cast<const char*>(kText), ${bytes}};\n}\n"
     "} // namespace tujit::report\n")
