// libFuzzer's entry point for the one SQL lexer (`SlateCore/SQLText/SQLLexer*.swift`): any bytes
// must lex to tokens that cover them end to end, each at least one byte long, and the statement
// splitter, the lexemes and the completeness check must end without a trap. Built and run by
// `Fuzz/lexer.sh` (swiftc -sanitize=fuzzer,address over the lexer's files alone).
#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func slateLexerFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var lexer = SQLLexer(bytes: bytes, includingTrivia: true)
    var end = 0
    while let token = lexer.next() {
        if token.start != end || token.end <= token.start || token.end > bytes.count { abort() }
        end = token.end
        _ = lexer.value(of: token)
        _ = lexer.isUnterminated(token)
    }
    if end != bytes.count { abort() }
    let text = String(decoding: bytes, as: UTF8.self)
    for statement in SQLLexer.statements(in: text) where statement.range.upperBound > text.utf8.count { abort() }
    _ = SQLLexer.lexemes(of: text)
    _ = SQLLexer.isComplete(text)
    return 0
}
