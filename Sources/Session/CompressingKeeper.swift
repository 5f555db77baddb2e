import CZstd
import MarkdownModel

/// Keeps a stream's parsed bytes compressed while their pages are given back
/// (`SourceKeeper`): a stream cannot be read again, and without this a piped document held
/// all its bytes until its last piece was parsed (20 MB at the top of a 21 MB changelog's
/// peak; compressed they are ~4 MB). The copy is only read if the pieces fail after all (a
/// document whose link definitions the plan misjudged); folio never writes its input to disk.
final class CompressingKeeper: SourceKeeper, @unchecked Sendable {
    private var kept: [(offset: Int, count: Int, bytes: [UInt8])] = []
    /// Where each run is compressed before it is copied out at its size (calls come one at
    /// a time).
    private var scratch: [UInt8] = []

    init() {}

    /// Bytes kept, compressed.
    var keptBytes: Int { kept.reduce(0) { $0 + $1.bytes.count } }

    func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let bound = ZSTD_compressBound(bytes.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let size = scratch.withUnsafeMutableBytes { out in
            ZSTD_compress(out.baseAddress, bound, base, bytes.count, 1)
        }
        guard ZSTD_isError(size) == 0, size > 0 else { return false }
        kept.append((offset, bytes.count, Array(scratch[..<size])))
        return true
    }

    func restore(_ source: inout [UInt8]) {
        source.withUnsafeMutableBufferPointer { whole in
            for run in kept {
                let size = run.bytes.withUnsafeBytes { packed in
                    ZSTD_decompress(whole.baseAddress! + run.offset, run.count, packed.baseAddress, packed.count)
                }
                precondition(ZSTD_isError(size) == 0 && size == run.count, "folio: a kept run of the input did not decompress")
            }
        }
        discard()
    }

    func discard() {
        kept = []
        scratch = []
    }
}
