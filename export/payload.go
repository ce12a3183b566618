package export

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// payloadMagic ends an executable that carries a bot's weights: the binary,
// then the safetensors bytes, then their length (8 bytes, little-endian),
// then the magic. Appending data to an executable leaves it runnable on
// Linux, macOS and Windows, so the exported Slime bot is a copy of
// the small cmd/slimebot runner that knows it is a bot.
var payloadMagic = []byte("gridgym-bot-payload-v1\x00")

// AppendPayload returns bin with the weights w appended as a payload.
func AppendPayload(bin, w []byte) []byte {
	out := make([]byte, 0, len(bin)+len(w)+8+len(payloadMagic))
	out = append(out, bin...)
	out = append(out, w...)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(w)))
	return append(out, payloadMagic...)
}

// payload returns the weights appended to bin, or nil if there are none.
func payload(bin []byte) []byte {
	if !bytes.HasSuffix(bin, payloadMagic) {
		return nil
	}
	end := len(bin) - len(payloadMagic)
	if end < 8 {
		return nil
	}
	n := binary.LittleEndian.Uint64(bin[end-8 : end])
	if n > uint64(end-8) {
		return nil
	}
	return bin[end-8-int(n) : end-8]
}

// StripPayload returns bin without an appended payload (exporting from an
// exported bot writes the new weights only).
func StripPayload(bin []byte) []byte {
	if p := payload(bin); p != nil {
		return bin[:len(bin)-len(p)-8-len(payloadMagic)]
	}
	return bin
}

// EmbeddedWeights returns the weights appended to the running executable,
// or nil if it carries none (it is plain gridgym). It reads only the tail
// of the file unless the magic is there.
func EmbeddedWeights() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tail := int64(len(payloadMagic) + 8)
	if st.Size() < tail {
		return nil, nil
	}
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, st.Size()-tail); err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(buf, payloadMagic) {
		return nil, nil
	}
	n := int64(binary.LittleEndian.Uint64(buf[:8]))
	if n <= 0 || n > st.Size()-tail {
		return nil, fmt.Errorf("%s: corrupt bot payload (length %d)", exe, n)
	}
	w := make([]byte, n)
	if _, err := f.ReadAt(w, st.Size()-tail-n); err != nil {
		return nil, err
	}
	return w, nil
}
