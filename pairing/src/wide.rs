//! A fixed-width unsigned integer of `L` 64-bit limbs, for matching weights.
//!
//! The Dutch system ranks pairings by a long list of criteria, each packed into its own
//! field of one edge weight so that a maximum weight matching honours them in order. With
//! 200 players and eleven rounds such a weight needs close to a thousand bits, so weights
//! are `Wide<L>` with `L` chosen per round (see `dutch::pair`). Layout: limb 0 is the least
//! significant. Arithmetic wraps modulo 2^(64 L), like the unsigned integers of the
//! standard library; callers size `L` so that no value they care about wraps.

use std::cmp::Ordering;
use std::fmt;

/// An unsigned integer of `L` little-endian 64-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>([u64; L]);

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Self = Wide([0; L]);

    /// The value `v`.
    pub fn from_u64(v: u64) -> Self {
        let mut limbs = [0; L];
        limbs[0] = v;
        Wide(limbs)
    }

    /// `2^bits - 1`: all bits below `bits` set.
    pub fn ones(bits: u32) -> Self {
        let mut limbs = [0; L];
        for (i, limb) in limbs.iter_mut().enumerate() {
            let low = i as u32 * 64;
            if bits >= low + 64 {
                *limb = u64::MAX;
            } else if bits > low {
                *limb = (1u64 << (bits - low)) - 1;
            }
        }
        Wide(limbs)
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }

    /// Whether the lowest bit is set.
    pub fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }

    /// The number of bits needed to write the value (0 for zero).
    pub fn bit_len(&self) -> u32 {
        for i in (0..L).rev() {
            if self.0[i] != 0 {
                return i as u32 * 64 + (64 - self.0[i].leading_zeros());
            }
        }
        0
    }

    /// `self + v * 2^pos`, wrapping. `v` is a small count or flag placed in a field.
    pub fn add_at(mut self, pos: u32, v: u64) -> Self {
        let index = (pos / 64) as usize;
        let offset = pos % 64;
        if index >= L || v == 0 {
            return self;
        }
        let low = v << offset;
        let high = if offset == 0 { 0 } else { v >> (64 - offset) };
        let mut carry = 0u64;
        for (i, addend) in [(index, low), (index + 1, high)] {
            if i >= L {
                return self;
            }
            let (sum, c1) = self.0[i].overflowing_add(addend);
            let (sum, c2) = sum.overflowing_add(carry);
            self.0[i] = sum;
            carry = u64::from(c1) + u64::from(c2);
        }
        let mut i = index + 2;
        while carry != 0 && i < L {
            let (sum, c) = self.0[i].overflowing_add(carry);
            self.0[i] = sum;
            carry = u64::from(c);
            i += 1;
        }
        self
    }

    /// `self + v`, wrapping.
    pub fn add_small(self, v: u64) -> Self {
        self.add_at(0, v)
    }

    /// `self - v`, wrapping.
    pub fn sub_small(self, v: u64) -> Self {
        self.wrapping_sub(Self::from_u64(v))
    }

    /// `self + rhs`, wrapping.
    pub fn wrapping_add(mut self, rhs: Self) -> Self {
        let mut carry = false;
        for i in 0..L {
            let (sum, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            self.0[i] = sum;
            carry = c1 || c2;
        }
        self
    }

    /// `self - rhs`, wrapping.
    pub fn wrapping_sub(mut self, rhs: Self) -> Self {
        let mut borrow = false;
        for i in 0..L {
            let (diff, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            self.0[i] = diff;
            borrow = b1 || b2;
        }
        self
    }

    /// `self * 2`, wrapping.
    pub fn double(self) -> Self {
        self.wrapping_add(self)
    }

    /// `self / 2`, rounding down.
    pub fn half(mut self) -> Self {
        for i in 0..L {
            let high = if i + 1 < L { self.0[i + 1] << 63 } else { 0 };
            self.0[i] = (self.0[i] >> 1) | high;
        }
        self
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Default for Wide<L> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const L: usize> fmt::Debug for Wide<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x")?;
        let top = (0..L).rev().find(|&i| self.0[i] != 0).unwrap_or(0);
        write!(f, "{:x}", self.0[top])?;
        for i in (0..top).rev() {
            write!(f, "_{:016x}", self.0[i])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn as_u128(w: Wide<2>) -> u128 {
        u128::from(w.0[0]) | (u128::from(w.0[1]) << 64)
    }

    fn of(v: u128) -> Wide<2> {
        Wide([v as u64, (v >> 64) as u64])
    }

    #[test]
    fn arithmetic_agrees_with_u128() {
        let samples = [
            0u128,
            1,
            2,
            u64::MAX as u128,
            (u64::MAX as u128) + 1,
            0x1234_5678_9abc_def0_1122_3344_5566_7788,
            u128::MAX,
            u128::MAX - 5,
        ];
        for &a in &samples {
            for &b in &samples {
                assert_eq!(as_u128(of(a).wrapping_add(of(b))), a.wrapping_add(b));
                assert_eq!(as_u128(of(a).wrapping_sub(of(b))), a.wrapping_sub(b));
                assert_eq!(of(a).cmp(&of(b)), a.cmp(&b));
            }
            assert_eq!(as_u128(of(a).half()), a / 2);
            assert_eq!(as_u128(of(a).double()), a.wrapping_mul(2));
            assert_eq!(of(a).bit_len(), 128 - a.leading_zeros());
            for pos in [0u32, 1, 31, 63, 64, 65, 100, 127] {
                for v in [0u64, 1, 3, 1000] {
                    let expected = a.wrapping_add(u128::from(v).wrapping_shl(pos));
                    assert_eq!(as_u128(of(a).add_at(pos, v)), expected, "{a} {pos} {v}");
                }
            }
        }
        assert_eq!(as_u128(Wide::<2>::ones(70)), (1u128 << 70) - 1);
        assert_eq!(as_u128(Wide::<2>::ones(128)), u128::MAX);
    }
}
