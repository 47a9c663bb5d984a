package dev.cryptopay.service.request;

/** Which page of a list was asked for: 1-based page number and page size. */
public record PageRequest(int page, int size) {

    public long offset() {
        return (long) (page - 1) * size;
    }
}
