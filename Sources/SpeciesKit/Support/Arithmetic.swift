extension Int {
    /// `self / divisor`, rounded up, for positive numbers, without the
    /// overflow of `(self + divisor - 1) / divisor` near `Int.max`: counts
    /// come from the server.
    func dividedRoundingUp(by divisor: Int) -> Int { self / divisor + (self % divisor == 0 ? 0 : 1) }
}
