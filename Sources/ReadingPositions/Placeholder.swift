// ReadingPositions
