package dev.cryptopay.service.request;

import java.util.function.Function;

/**
 * One member of a PUT body, which tells three cases apart: left out ({@link #absent()}: keep what is stored), sent as
 * JSON {@code null} ({@link #clear()}: remove the stored value; only fields that are optional allow it) and sent with
 * a value ({@link #of}). Read with {@link Field#patch}.
 *
 * @param given whether the body names the member at all
 * @param value the new value; null when absent or cleared
 * @param <T>   the field's Java value
 */
public record Patch<T>(boolean given, T value) {

    private static final Patch<?> ABSENT = new Patch<>(false, null);
    private static final Patch<?> CLEAR = new Patch<>(true, null);

    public Patch {
        if (!given && value != null) {
            throw new IllegalArgumentException("an absent member has no value");
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> Patch<T> absent() {
        return (Patch<T>) ABSENT;
    }

    @SuppressWarnings("unchecked")
    public static <T> Patch<T> clear() {
        return (Patch<T>) CLEAR;
    }

    /** A member sent with a value; null here means {@link #clear()}. */
    public static <T> Patch<T> of(T value) {
        return value == null ? clear() : new Patch<>(true, value);
    }

    /** Whether the body sends {@code null} to remove the stored value. */
    public boolean clears() {
        return given && value == null;
    }

    /** Whether the body sends a value (not null). */
    public boolean hasValue() {
        return value != null;
    }

    /** The value after the patch: {@code current} when absent, null when cleared, else the new value. */
    public T applyTo(T current) {
        return given ? value : current;
    }

    /** The same member with its value converted (absent and null stay as they are). */
    public <U> Patch<U> map(Function<T, U> convert) {
        return given ? of(value == null ? null : convert.apply(value)) : absent();
    }
}
