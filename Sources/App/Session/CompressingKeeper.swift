import CZstd
import MarkdownModel
import Threads

/// Keeps a stream's parsed bytes compressed while their pages are given back
/// (`SourceKeeper`): a stream cannot be read again, and without this a piped document held
/// all its bytes until its last piece was parsed (20 MB at the top of a 21 MB changelog's
/// peak; compressed they are ~4 MB). The copy is only read if the pieces fail after all (a
/// document whose link definitions the plan misjudged); folio never writes its input to disk.
final class CompressingKeeper: SourceKeeper, Sendable {
    private struct Kept {
        var runs: [(offset: Int, count: Int, bytes: [UInt8])] = []
        /// Where each run is compressed before it is copied out at its size.
        var scratch: [UInt8] = []
    }
    /// (Calls come one at a time, from the pieces' threads: the lock costs nothing.)
    private let state = Locked(Kept())

    init() {}

    /// Bytes kept, compressed.
    var keptBytes: Int { state.withLock { $0.runs.reduce(0) { $0 + $1.bytes.count } } }

    func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let bound = ZSTD_compressBound(bytes.count)
        return state.withLock { state in
            if state.scratch.count < bound { state.scratch = [UInt8](repeating: 0, count: bound) }
            let size = state.scratch.withUnsafeMutableBytes { out in
                ZSTD_compress(out.baseAddress, bound, base, bytes.count, 1)
            }
            guard ZSTD_isError(size) == 0, size > 0 else { return false }
            state.runs.append((offset, bytes.count, Array(state.scratch[..<size])))
            return true
        }
    }

    func restore(_ source: inout [UInt8]) {
        let runs = state.withLock { $0.runs }
        source.withUnsafeMutableBufferPointer { whole in
            for run in runs {
                let size = run.bytes.withUnsafeBytes { packed in
                    ZSTD_decompress(whole.baseAddress! + run.offset, run.count, packed.baseAddress, packed.count)
                }
                precondition(ZSTD_isError(size) == 0 && size == run.count, "folio: a kept run of the input did not decompress")
            }
        }
        discard()
    }

    func discard() { state.withLock { $0 = Kept() } }
}
